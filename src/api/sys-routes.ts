// The `sys/` path table the world serves, gathered from one handler module per area of the spec.
import { merkleRoutes } from './merkle.js';
import { operationTokenRoutes } from './operation-token.js';
import { pluginRuntimeRoutes } from './plugin-runtimes.js';
import { drRoutes } from './replication-dr.js';
import { performanceRoutes } from './replication-performance.js';
import type { Route } from './route.js';
import { syncRoutes } from './sync.js';

export const sysRoutes: Route[] = [...drRoutes, ...operationTokenRoutes, ...merkleRoutes, ...performanceRoutes, ...pluginRuntimeRoutes, ...syncRoutes];
