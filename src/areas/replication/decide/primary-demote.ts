// POST <kind>/primary/demote: primary → secondary that follows nobody, same cluster id (role table).
import { NO_ROW } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { accepted, askRoleOf, replicationErrors, WARNINGS } from './common.js';

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext): Outcome => {
    const answer = askRoleOf(kind, ctx.cluster, { type: 'primary.demote' }, { [NO_ROW]: () => err.notPrimary(ctx.cluster) });
    if ('refusal' in answer) return answer.refusal;
    const next = answer.next;
    return accepted([{ type: 'replication-primary-demoted', at: ctx.now, kind, cluster: ctx.cluster.name, role: next }], WARNINGS.demoted);
  };
}
