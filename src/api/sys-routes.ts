// The `sys/` path table the world serves, gathered from one handler module per area of the spec.
import { clientRoutes } from './client-endpoints.js';
import { merkleRoutes } from './merkle.js';
import { notBuilt } from './not-built.js';
import { operationTokenRoutes } from './operation-token.js';
import { pluginRuntimeRoutes } from './plugin-runtimes.js';
import { drRoutes } from './replication-dr.js';
import { performanceRoutes } from './replication-performance.js';
import type { Route } from './route.js';
import { syncRoutes } from './sync.js';

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
