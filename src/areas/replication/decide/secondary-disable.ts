// POST <kind>/secondary/disable: secondary → disabled, storage kept (role table); DR needs a DR
// operation token.
import { stepRole } from '../../../../models/replication-role.machine.js';
import { operationTokenValid } from '../../cluster/http/authorize.js';
import type { Outcome, RequestContext } from '../../cluster/http/route.js';
import type { ReplicationKind } from '../../cluster/state.js';
import { accepted, isSecondary, operationTokenField, replicationErrors, WARNINGS } from './common.js';

export const fields = (kind: ReplicationKind) => ({ ...operationTokenField(kind) }) as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<ReturnType<typeof fields>>): Outcome => {
    const c = ctx.cluster;
    const next = isSecondary(c, kind) ? stepRole(kind, c.replication[kind].role, { type: 'secondary.disable', operationTokenValid: operationTokenValid(ctx) }) : null;
    if (next === null) return err.notSecondary();
    return accepted([{ type: 'replication-secondary-disabled', at: ctx.now, kind, cluster: c.name, role: next }], WARNINGS.disabled);
  };
}
