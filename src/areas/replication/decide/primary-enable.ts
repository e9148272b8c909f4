// POST <kind>/primary/enable: disabled → primary (role table), with a new cluster id: every enable
// starts a new replication set.
import { NO_ROW } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { accepted, askRoleOf, replicationErrors, WARNINGS } from './common.js';

export const fields = { primary_cluster_addr: { type: 'string', default: '' } } as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const answer = askRoleOf(kind, ctx.cluster, { type: 'primary.enable' }, { [NO_ROW]: (mode) => (mode === 'secondary' ? err.mustPromote() : err.alreadyPrimary()) });
    if ('refusal' in answer) return answer.refusal;
    const next = answer.next;
    // Every enable starts a new replication set: a disabled-then-enabled primary gets a new id.
    const clusterId = ctx.rng.uuid();
    return accepted(
      [{ type: 'replication-primary-enabled', at: ctx.now, kind, cluster: ctx.cluster.name, clusterId, primaryClusterAddr: ctx.fields.primary_cluster_addr, role: next }],
      WARNINGS.primaryEnabled,
    );
  };
}
