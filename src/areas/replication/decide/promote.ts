// POST <kind>/secondary/promote: secondary → primary of the same set (role table). DR needs a DR
// operation token (the authorisation step checks it; the machine is asked with the fact); unless
// `force`, the safety checks must pass.
import { NO_ROW, type RoleEvent } from '../../../../models/replication-role.machine.js';
import { operationTokenValid } from '../../core/http/authorize.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ClusterState, ReplicationKind } from '../../core/state.js';
import { isMerkleCorrupted } from '../../merkle/merkle.js';
import { accepted, askRoleOf, operationTokenField, replicationErrors, WARNINGS } from './common.js';

export const fields = (kind: ReplicationKind) => ({ ...operationTokenField(kind), primary_cluster_addr: { type: 'string', default: '' }, force: { type: 'bool', default: false } }) as const;

/** Why a secondary is in an error state that blocks an unforced promotion; empty when it is not. */
export function promotionBlockers(c: ClusterState, kind: ReplicationKind): string[] {
  const reasons: string[] = [];
  if (!c.replication[kind].synced) reasons.push('the initial sync from the primary has not completed');
  if (isMerkleCorrupted(c)) reasons.push('its merkle tree is corrupted');
  return reasons;
}

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<ReturnType<typeof fields>>): Outcome => {
    const c = ctx.cluster;
    // A primary that is down is no reason to refuse: that is what a failover is for.
    const blockers = promotionBlockers(c, kind);
    const event: RoleEvent = { type: 'secondary.promote', operationTokenValid: operationTokenValid(ctx), force: ctx.fields.force, safetyChecksPass: blockers.length === 0 };
    const answer = askRoleOf(kind, c, event, { [NO_ROW]: err.notSecondary, safetyChecksPassOrForced: () => err.unsafePromotion(blockers) });
    if ('refusal' in answer) return answer.refusal;
    const next = answer.next;
    return accepted(
      [
        {
          type: 'replication-secondary-promoted',
          at: ctx.now,
          kind,
          cluster: c.name,
          primaryClusterAddr: ctx.fields.primary_cluster_addr,
          force: ctx.fields.force,
          safetyChecksPassed: blockers.length === 0,
          role: next,
        },
      ],
      WARNINGS.promoted,
    );
  };
}
