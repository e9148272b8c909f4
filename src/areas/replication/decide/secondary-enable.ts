// POST <kind>/secondary/enable: disabled → secondary with a valid activation token (role table);
// all data in the cluster is cleared at once (evolve.ts).
import { NO_ROW } from '../../../../models/replication-role.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { redeemActivationToken } from '../activation.js';
import { accepted, askRoleOf, replicationErrors, WARNINGS } from './common.js';

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
    // Redeeming changes nothing and draws nothing, so it is done first: the role machine then
    // decides with the real fact (was a valid activation token given?). A refusal names the
    // first failing condition in the service's order: the role, then the token.
    const redeemed = ctx.fields.token.trim() === '' ? null : redeemActivationToken(ctx.state, c, kind, ctx.fields.token, ctx.fields.primary_api_addr.trim());
    const answer = askRoleOf(kind, c, { type: 'secondary.enable', activationTokenValid: redeemed?.ok === true }, {
      [NO_ROW]: (mode) => (mode === 'primary' ? err.primaryCannotEnableSecondary() : err.alreadySecondary()),
      // The refusal for a token the secondary could not redeem (or none given).
      hasValidActivationToken: () => (redeemed !== null && !redeemed.ok ? redeemed.refusal : err.missingToken()),
    });
    if ('refusal' in answer && answer.refused === NO_ROW) return answer.refusal;
    if (kind === 'dr' && c.replication.performance.role !== 'disabled') return err.drSecondaryAlone();
    if ('refusal' in answer) return answer.refusal;
    // The machine takes the row only with a valid activation token.
    if (!redeemed?.ok) throw new Error('the role machine enabled a secondary without a redeemed activation token');
    const decided = answer.next;
    return accepted([{ type: 'replication-secondary-enabled', at: ctx.now, kind, cluster: c.name, ...redeemed.assignment, role: decided }], WARNINGS.secondaryFound);
  };
}
