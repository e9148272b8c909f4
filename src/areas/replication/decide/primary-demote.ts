// POST <kind>/primary/demote: primary → secondary that follows nobody, same cluster id (role table).
import { stepRole } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../cluster/http/route.js';
import type { ReplicationKind } from '../../cluster/state.js';
import { accepted, replicationErrors, WARNINGS } from './common.js';

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext): Outcome => {
    const next = stepRole(kind, ctx.cluster.replication[kind].role, { type: 'primary.demote' });
    if (next === null) return err.notPrimary(ctx.cluster);
    return accepted([{ type: 'replication-primary-demoted', at: ctx.now, kind, cluster: ctx.cluster.name, role: next }], WARNINGS.demoted);
  };
}
