// Area A: DR replication under sys/replication/dr. The endpoints are the shared ones, for kind
// `dr`: the secondary-side calls (promote, disable, update-primary) are authorised by a DR
// operation token and stay open on a DR secondary. The combined GET sys/replication/status lives
// here too, until the performance module shares it. Generation attempts, operation-token/delete,
// reindex and merkle-check are in operation-token.ts and merkle.ts.
import { combinedStatusRoute, replicationRoutes } from './replication-shared.js';
import type { Route } from './route.js';

export const drRoutes: Route[] = [...replicationRoutes('dr'), combinedStatusRoute];
