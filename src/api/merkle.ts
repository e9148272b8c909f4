// reindex and merkle-check on a DR secondary. Placeholder: 501 until built.
import { notBuilt } from './not-built.js';
import type { Route } from './route.js';

export const merkleRoutes: Route[] = [
  notBuilt('sys/replication/dr/secondary/reindex', ['POST'], 'DR reindex'),
  notBuilt('sys/replication/dr/secondary/merkle-check', ['POST'], 'DR merkle-check'),
];
