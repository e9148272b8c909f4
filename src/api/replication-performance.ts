// Area B: performance replication endpoints. Placeholder: every path answers 501 until built.
import type { Method } from './http.js';
import { notBuilt } from './not-built.js';
import type { Route } from './route.js';

const paths: [string, Method[]][] = [
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

export const performanceRoutes: Route[] = paths.map(([p, m]) => notBuilt(`sys/replication/performance/${p}`, m, `performance replication: ${p}`));
