// The `sys/` path table the world serves, gathered from one handler module per area of the spec.
import { clientRoutes } from './cluster/client-endpoints.js';
import { merkleRoutes } from './merkle/routes.js';
import { notBuilt } from './cluster/http/not-built.js';
import { operationTokenRoutes } from './operation-token/routes.js';
import { pluginRuntimeRoutes } from './plugins/routes.js';
import { drRoutes } from './replication/routes-dr.js';
import { performanceRoutes } from './replication/routes-performance.js';
import type { Route } from './cluster/http/route.js';
import { syncRoutes } from './sync/routes.js';

/**
 * Paths of the real service that replsim does not simulate (README, Limits): they answer 501
 * "not implemented in replsim" rather than 404, so nobody mistakes them for absent on the service.
 */
const notSimulated: Route[] = [
  notBuilt('sys/sync/config', ['GET', 'PATCH', 'DELETE'], 'sys/sync/config (secret sync settings)'),
  notBuilt('sys/activation-flags', ['GET'], 'activation flags'),
  notBuilt('sys/activation-flags/:feature/activate', ['POST', 'PUT'], 'activation flags'),
  notBuilt('sys/replication/dr/secondary/recover', ['POST'], 'DR recover'),
  notBuilt('sys/replication/recover', ['POST'], 'replication recover'),
];

export const sysRoutes: Route[] = [...drRoutes, ...operationTokenRoutes, ...merkleRoutes, ...performanceRoutes, ...pluginRuntimeRoutes, ...syncRoutes, ...clientRoutes, ...notSimulated];
