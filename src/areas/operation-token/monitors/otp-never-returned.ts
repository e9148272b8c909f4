// Invariant `otp-never-returned`: no read of a generation attempt returns the OTP.
//
// The OTP the server generates is shown once, in the response that starts the attempt, and never
// again (facts file: `otp` is non-empty only in the init response). The monitor needs the
// responses (`Watch.observeResponse`); it checks that
//  - a read (GET) of an attempt, DR operation token or root token, has an empty `otp`;
//  - no other response carries the OTP of the attempt the cluster had open when it answered,
//    whatever the field.
import { attemptSecretOf } from '../operation-token.js';
import { requestPath, violation } from '../../monitoring/observe.js';
import { stateless, type Finding, type Monitor, type Observation } from '../../monitoring/types.js';
import { ATTEMPT_PATHS } from './one-generation-attempt.js';

export function otpNeverReturned(): Monitor {
  return stateless({
    id: 'otp-never-returned',
    kind: 'invariant',
    description: 'no read of a generation attempt returns the OTP',
    observe(o: Observation) {
      const findings: Finding[] = [];
      for (const r of o.responses ?? []) {
        const { method, path } = requestPath(r.request);
        const body = r.response.body as { otp?: unknown } | null;
        if (method === 'GET' && ATTEMPT_PATHS.includes(path) && body && typeof body.otp === 'string' && body.otp !== '') {
          findings.push(violation('otp-never-returned', r.after.now, [r.cluster], `reading ${path} on ${r.cluster} returned the attempt's OTP`));
          continue;
        }
        const c = r.before.clusters.get(r.cluster);
        const secret = c ? attemptSecretOf(c) : null;
        if (secret && 'otp' in secret && secret.otp !== '' && JSON.stringify(r.response.body ?? null).includes(secret.otp))
          findings.push(violation('otp-never-returned', r.after.now, [r.cluster], `${method} ${path} on ${r.cluster} answered with the OTP of its open generation attempt`));
      }
      return findings;
    },
  });
}
