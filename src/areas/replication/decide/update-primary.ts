// POST <kind>/secondary/update-primary: a new primary without a wipe (A.5). A token (redeemed like
// secondary/enable), or `update_primary_addrs` pinged one at a time, never both (A.1, A.2, B.2); an
// empty token makes the cluster forget its primary and stay a secondary (A.4); a newly demoted
// secondary must be given a token (A.3).
import { NO_ROW } from '../../../../models/replication-role.machine.js';
import { operationTokenValid } from '../../core/http/authorize.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ClusterState, ReplicationKind, SimState } from '../../core/state.js';
import { reachable } from '../../../kernel/network.js';
import { redeemActivationToken } from '../activation.js';
import type { PrimaryAssignment } from '../events.js';
import { acceptsCredentials, advertisedClusterAddr, clusterAt } from '../link.js';
import { accepted, askRoleOf, operationTokenField, replicationErrors, WARNINGS } from './common.js';

export const fields = (kind: ReplicationKind) =>
  ({
    ...operationTokenField(kind),
    // Required in the schema, yet it may be empty (area A rule 4), and addresses may stand in for it.
    token: { type: 'string' },
    primary_api_addr: { type: 'string', default: '' },
    // The simulated network needs no TLS: CA and client certificate settings are accepted and unused, as on enable.
    ca_file: { type: 'string', default: '' },
    ca_path: { type: 'string', default: '' },
    client_cert_pem: { type: 'string', default: '' },
    client_key_pem: { type: 'string', default: '' },
    update_primary_addrs: { type: 'strings', default: [] },
  }) as const;

/**
 * The first address (in the order given) answering as the primary of this secondary's set (area A
 * rule 2). The ping is made with the secondary's credentials, so only a primary that takes them
 * answers successfully: one that knows its id and token, not revoked (link.ts, acceptsCredentials).
 */
function firstAnsweringPrimary(ctx: { state: SimState; cluster: ClusterState }, kind: ReplicationKind, addrs: string[]): ClusterState | null {
  const own = ctx.cluster.replication[kind];
  for (const addr of addrs) {
    const target = clusterAt(ctx.state, addr);
    if (!target || target.name === ctx.cluster.name || !reachable(ctx.state.network, ctx.cluster.name, target.name)) continue;
    const r = target.replication[kind];
    if (r.role === 'primary' && r.clusterId === own.clusterId && acceptsCredentials(ctx.state, kind, target, own.secondaryId, own.jti)) return target;
  }
  return null;
}

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<ReturnType<typeof fields>>): Outcome => {
    const c = ctx.cluster;
    const r = c.replication[kind];
    const token = (ctx.fields.token ?? '').trim();
    const addrs = ctx.fields.update_primary_addrs.map((a) => a.trim()).filter((a) => a !== '');
    // The facts as given: the token when the request has one (it may be empty), the addresses when any.
    const answer = askRoleOf(
      kind,
      c,
      { type: 'secondary.update-primary', operationTokenValid: operationTokenValid(ctx), token: ctx.fields.present.has('token') ? token : undefined, addresses: addrs.length > 0 ? addrs : undefined },
      {
        [NO_ROW]: err.notSecondary,
        notBothTokenAndAddresses: err.tokenAndAddresses,
        tokenOrAddresses: err.neitherTokenNorAddresses,
        tokenAfterDemotion: err.addressesAfterDemotion,
        tokenWithoutPrimary: err.addressesWithoutPrimary,
      },
    );
    if ('refusal' in answer) return answer.refusal;
    const next = answer.next;
    const via: 'token' | 'addresses' | 'empty-token' = addrs.length > 0 ? 'addresses' : token === '' ? 'empty-token' : 'token';

    let assignment: PrimaryAssignment;
    if (via === 'empty-token') {
      assignment = { primary: null, primaryApiAddr: '', primaryClusterAddr: '', knownPrimaryClusterAddrs: [], secondaryId: '', jti: '', clusterId: r.clusterId };
    } else if (via === 'addresses') {
      const target = firstAnsweringPrimary(ctx, kind, addrs);
      if (!target) return err.noAddressAnswered(addrs);
      assignment = {
        primary: target.name,
        primaryApiAddr: target.apiAddr,
        primaryClusterAddr: advertisedClusterAddr(target, kind),
        knownPrimaryClusterAddrs: addrs,
        secondaryId: r.secondaryId,
        jti: r.jti,
        clusterId: r.clusterId,
      };
    } else {
      const redeemed = redeemActivationToken(ctx.state, c, kind, token, ctx.fields.primary_api_addr.trim());
      // The refusal for a token the secondary could not redeem.
      if (!redeemed.ok) return redeemed.refusal;
      // update-primary never wipes (rule 5), so it cannot join another replication set: after a
      // primary is disabled and enabled again (a new cluster_id) its old secondaries need a wipe.
      if (r.clusterId !== '' && redeemed.assignment.clusterId !== r.clusterId) return err.otherReplicationSet(redeemed.assignment.clusterId, r.clusterId);
      assignment = redeemed.assignment;
    }
    return accepted(
      [{ type: 'replication-secondary-primary-updated', at: ctx.now, kind, cluster: c.name, via, ...assignment, role: next }],
      via === 'empty-token' ? undefined : WARNINGS.secondaryFound,
    );
  };
}
