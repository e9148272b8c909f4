// POST <kind>/primary/demote: primary → secondary that follows nobody, same cluster id (role table).
import { canRole } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../cluster/http/route.js';
import type { ReplicationKind } from '../../cluster/state.js';
import { accepted, replicationErrors, WARNINGS } from './common.js';

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext): Outcome => {
    if (!canRole(kind, ctx.cluster.replication[kind].role, { type: 'primary.demote' })) return err.notPrimary(ctx.cluster);
    return accepted([{ type: 'replication-primary-demoted', at: ctx.now, kind, cluster: ctx.cluster.name }], WARNINGS.demoted);
  };
}
