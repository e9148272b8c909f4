// The `sys/` path table the world serves, gathered from one handler module per area of the spec.
// Areas C and D (plugin runtime catalog, secret sync) are not simulated: they answer 501.
import { merkleRoutes } from './merkle.js';
import { notBuilt } from './not-built.js';
import { operationTokenRoutes } from './operation-token.js';
import { drRoutes } from './replication-dr.js';
import { performanceRoutes } from './replication-performance.js';
import type { Route } from './route.js';

const notSimulated: Route[] = [
  notBuilt('sys/plugins/runtimes/catalog', ['GET', 'LIST'], 'the plugin runtime catalog (spec area C)'),
  notBuilt('sys/plugins/runtimes/catalog/:type/:name', ['GET', 'POST', 'DELETE'], 'the plugin runtime catalog (spec area C)'),
  notBuilt('sys/sync/*rest', ['GET', 'POST', 'PATCH', 'DELETE', 'LIST'], 'secret sync (spec area D)'),
];

export const sysRoutes: Route[] = [...drRoutes, ...operationTokenRoutes, ...merkleRoutes, ...performanceRoutes, ...notSimulated];
