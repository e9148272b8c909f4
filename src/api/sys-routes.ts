// The `sys/` path table the world serves: every path of the spec, each either built (its handler
// module) or answering 501 "not implemented" so that nobody mistakes an unbuilt part for success.
import { errors } from './http.js';
import { endpoint, type Route } from './route.js';
import type { Method } from './http.js';

/** A path of the spec that replsim does not simulate yet: it answers 501 and changes nothing. */
function notBuilt(pattern: string, methods: Method[], what: string): Route {
  const route: Route = { pattern, methods: {} };
  for (const m of methods) route.methods[m] = endpoint({ summary: what, auth: { token: 'none', openOnDrSecondary: true }, handle: () => errors.notImplemented(what) });
  return route;
}

const drPaths: [string, Method[]][] = [
  ['status', ['GET']],
  ['primary/enable', ['POST']],
  ['primary/demote', ['POST']],
  ['primary/disable', ['POST']],
  ['primary/secondary-token', ['POST']],
  ['primary/revoke-secondary', ['POST']],
  ['secondary/generate-public-key', ['POST']],
  ['secondary/enable', ['POST']],
  ['secondary/promote', ['POST']],
  ['secondary/disable', ['POST']],
  ['secondary/update-primary', ['POST']],
  ['secondary/generate-operation-token/attempt', ['GET', 'POST', 'DELETE']],
  ['secondary/generate-operation-token/update', ['POST']],
  ['secondary/operation-token/delete', ['POST']],
  ['secondary/reindex', ['POST']],
  ['secondary/merkle-check', ['POST']],
];
const perfPaths: [string, Method[]][] = [
  ['status', ['GET']],
  ['primary/enable', ['POST']],
  ['primary/demote', ['POST']],
  ['primary/disable', ['POST']],
  ['primary/secondary-token', ['POST']],
  ['primary/revoke-secondary', ['POST']],
  ['primary/paths-filter/:id', ['GET', 'POST', 'DELETE']],
  ['primary/dynamic-filter/:id', ['GET']],
  ['secondary/dynamic-filter/:id', ['GET']],
  ['secondary/generate-public-key', ['POST']],
  ['secondary/enable', ['POST']],
  ['secondary/promote', ['POST']],
  ['secondary/disable', ['POST']],
  ['secondary/update-primary', ['POST']],
];

export const drRoutes: Route[] = drPaths.map(([p, m]) => notBuilt(`sys/replication/dr/${p}`, m, `DR replication: ${p}`));
export const performanceRoutes: Route[] = perfPaths.map(([p, m]) => notBuilt(`sys/replication/performance/${p}`, m, `performance replication: ${p}`));

/** Areas C and D of the spec (plugin runtime catalog, secret sync): not simulated yet. */
const otherAreas: Route[] = [
  notBuilt('sys/plugins/runtimes/catalog', ['GET', 'LIST'], 'the plugin runtime catalog'),
  notBuilt('sys/plugins/runtimes/catalog/:type/:name', ['GET', 'POST', 'DELETE'], 'the plugin runtime catalog'),
  notBuilt('sys/sync/*rest', ['GET', 'POST', 'PATCH', 'DELETE', 'LIST'], 'secret sync'),
  notBuilt('sys/generate-root/attempt', ['GET', 'POST', 'DELETE'], 'root token generation'),
  notBuilt('sys/generate-root/update', ['POST'], 'root token generation'),
];

export const sysRoutes: Route[] = [...drRoutes, ...performanceRoutes, ...otherAreas];
