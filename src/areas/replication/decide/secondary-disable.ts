// POST <kind>/secondary/disable: secondary → disabled, storage kept (role table); DR needs a DR
// operation token.
import { canRole } from '../../../../models/replication-role.machine.js';
import { operationTokenValid } from '../../cluster/http/authorize.js';
import type { Outcome, RequestContext } from '../../cluster/http/route.js';
import type { ReplicationKind } from '../../cluster/state.js';
import { accepted, isSecondary, operationTokenField, replicationErrors, WARNINGS } from './common.js';

export const fields = (kind: ReplicationKind) => ({ ...operationTokenField(kind) }) as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<ReturnType<typeof fields>>): Outcome => {
    const c = ctx.cluster;
    if (!isSecondary(c, kind) || !canRole(kind, c.replication[kind].role, { type: 'secondary.disable', operationTokenValid: operationTokenValid(c, ctx.body) })) return err.notSecondary();
    return accepted([{ type: 'replication-secondary-disabled', at: ctx.now, kind, cluster: c.name }], WARNINGS.disabled);
  };
}
