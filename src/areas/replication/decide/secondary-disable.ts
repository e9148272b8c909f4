// POST <kind>/secondary/disable: secondary → disabled, storage kept (role table); DR needs a DR
// operation token.
import { NO_ROW } from '../../../../models/replication-role.machine.js';
import { operationTokenValid } from '../../core/http/authorize.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { accepted, askRoleOf, operationTokenField, replicationErrors, WARNINGS } from './common.js';

export const fields = (kind: ReplicationKind) => ({ ...operationTokenField(kind) }) as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<ReturnType<typeof fields>>): Outcome => {
    const c = ctx.cluster;
    const answer = askRoleOf(kind, c, { type: 'secondary.disable', operationTokenValid: operationTokenValid(ctx) }, { [NO_ROW]: err.notSecondary });
    if ('refusal' in answer) return answer.refusal;
    const next = answer.next;
    return accepted([{ type: 'replication-secondary-disabled', at: ctx.now, kind, cluster: c.name, role: next }], WARNINGS.disabled);
  };
}
