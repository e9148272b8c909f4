// Area A: DR replication under sys/replication/dr. The endpoints are the shared ones, for kind
// `dr`: the secondary-side calls (promote, disable, update-primary) are authorised by a DR
// operation token and stay open on a DR secondary. The combined GET sys/replication/status is
// served from here (once; it reports both kinds, performance being wired in
// replication-performance.ts) because it stays open on a DR secondary as DR's own status does.
// Generation attempts, operation-token/delete, reindex and merkle-check are in operation-token.ts
// and merkle.ts.
import { combinedStatusRoute, replicationRoutes } from './routes-shared.js';
import type { Route } from '../cluster/http/route.js';

export const drRoutes: Route[] = [...replicationRoutes('dr'), combinedStatusRoute];
