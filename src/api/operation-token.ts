// Generation attempts (DR operation token at sys/replication/dr/secondary/generate-operation-token,
// root token at sys/generate-root) and operation-token/delete. Placeholder: 501 until built.
import { notBuilt } from './not-built.js';
import type { Route } from './route.js';

export const operationTokenRoutes: Route[] = [
  notBuilt('sys/replication/dr/secondary/generate-operation-token/attempt', ['GET', 'POST', 'DELETE'], 'DR operation token generation'),
  notBuilt('sys/replication/dr/secondary/generate-operation-token/update', ['POST'], 'DR operation token generation'),
  notBuilt('sys/replication/dr/secondary/operation-token/delete', ['POST'], 'DR operation token deletion'),
  notBuilt('sys/generate-root/attempt', ['GET', 'POST', 'DELETE'], 'root token generation'),
  notBuilt('sys/generate-root/update', ['POST'], 'root token generation'),
];
