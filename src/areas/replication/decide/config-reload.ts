// POST sys/replication/dr/secondary/config/reload/:subsystem: "Reload the given subsystem" (the
// service's API document), the DR secondary's form of sys/config/reload/:subsystem. The service's
// handler (vault/logical_system.go `handleConfigReload`) knows one subsystem, `license`: it re-reads
// the licence file the server's `license_path` names and applies it; any other is an unsupported
// path. A simulated cluster's licence is its scenario's and no file changes under it, so a reload
// applies the licence in force again: nothing changes, and it answers 204.
import type { RequestContext } from '../../core/http/route.js';
import { isDrSecondary } from '../../core/http/authorize.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { notDrSecondary } from '../../operation-token/decide/strategy.js';

export const PATH = 'sys/replication/dr/secondary/config/reload/:subsystem';

export function decide(ctx: RequestContext): Reply {
  if (!isDrSecondary(ctx.cluster)) return notDrSecondary('sys/replication/dr/secondary/config/reload');
  if (ctx.params.subsystem !== 'license') return errors.unsupportedPath();
  return reply.empty();
}
