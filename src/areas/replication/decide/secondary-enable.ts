// POST <kind>/secondary/enable: disabled → secondary with a valid activation token (role table);
// all data in the cluster is cleared at once (evolve.ts).
import { stepRole } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../cluster/http/route.js';
import type { ReplicationKind } from '../../cluster/state.js';
import { redeemActivationToken } from '../activation.js';
import { accepted, replicationErrors, WARNINGS } from './common.js';

export const fields = {
  token: { type: 'string', required: 'missing token' },
  primary_api_addr: { type: 'string', default: '' },
  // The simulated network needs no TLS: CA and client certificate settings are accepted and unused.
  ca_file: { type: 'string', default: '' },
  ca_path: { type: 'string', default: '' },
  client_cert_pem: { type: 'string', default: '' },
  client_key_pem: { type: 'string', default: '' },
} as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const c = ctx.cluster;
    const role = c.replication[kind].role;
    // Redeeming changes nothing and draws nothing, so it is done first: the role machine then
    // decides with the real fact (was a valid activation token given?). A refusal names the
    // first failing condition in the service's order: the role, then the token.
    const redeemed = ctx.fields.token.trim() === '' ? null : redeemActivationToken(ctx.state, c, kind, ctx.fields.token, ctx.fields.primary_api_addr.trim());
    const decided = stepRole(kind, role, { type: 'secondary.enable', activationTokenValid: redeemed?.ok === true });
    if (decided === null && role !== 'disabled') return role === 'primary' ? err.primaryCannotEnableSecondary() : err.alreadySecondary();
    if (kind === 'dr' && c.replication.performance.role !== 'disabled') return err.drSecondaryAlone();
    if (redeemed === null) return err.missingToken();
    // The refusal for a token the secondary could not redeem.
    if (!redeemed.ok) return redeemed.refusal;
    // A valid token from a role that allows enable: the machine's answer above (never null here).
    if (decided === null) return role === 'primary' ? err.primaryCannotEnableSecondary() : err.alreadySecondary();
    return accepted([{ type: 'replication-secondary-enabled', at: ctx.now, kind, cluster: c.name, ...redeemed.assignment, role: decided }], WARNINGS.secondaryFound);
  };
}
