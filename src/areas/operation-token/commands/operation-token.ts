// Tokens an operator generates from key shares, through the API, as the runbooks say: a DR
// operation token on a DR secondary (promote, disable and update-primary need one), and a root
// token through sys/generate-root where no root token the operator holds works (a performance
// secondary keeps tokens local: enabling it leaves it none). Both start an attempt (the service
// draws the OTP and shows it once), take the key shares of the keyring the cluster holds (after
// activation, its primary's), and give an encoded token that the OTP decodes.
import type { Method } from '../../../kernel/http/http.js';
import type { Answer, Ref, RequestOptions } from '../../property/answer.js';
import { expectOutcome, replicationPath, type Prediction } from '../../property/outcome.js';

/**
 * What these steps need of the operator (operator.ts's Operator has it): named here, not imported,
 * because the operator itself generates a root token through them.
 */
export interface Operator {
  request(on: string, method: Method, path: string | (string | Ref)[], options: RequestOptions): Answer;
  keyShares(cluster: string, count: number): { owner: string; shares: Ref[] };
  decode(encoded: Ref, otp: Ref, base: string, label: string): Ref;
}

interface Strategy {
  attempt: string;
  update: string;
  what: string;
  /** Variable base names: `westOpToken`, `westRootToken`. */
  suffix: string;
}

const DR_OPERATION_TOKEN: Strategy = {
  attempt: replicationPath('dr', 'secondary/generate-operation-token/attempt'),
  update: replicationPath('dr', 'secondary/generate-operation-token/update'),
  what: 'DR operation token',
  suffix: 'Op',
};

const ROOT_TOKEN: Strategy = { attempt: 'sys/generate-root/attempt', update: 'sys/generate-root/update', what: 'root token', suffix: 'Root' };

function generate(op: Operator, cluster: string, s: Strategy, prediction: Prediction): Ref | null {
  const nonceVar = `${cluster}${s.suffix}Nonce`;
  const otpVar = `${cluster}${s.suffix}Otp`;
  const start = op.request(cluster, 'POST', s.attempt, { token: 'none', label: `start a ${s.what} attempt on ${cluster}`, save: { [nonceVar]: 'nonce', [otpVar]: 'otp' } });
  expectOutcome(start, prediction, `starting a ${s.what} attempt on ${cluster}`);
  if (!start.ok) return null;
  const nonce = start.saved[nonceVar];
  const required = Number(start.body.required);
  const { owner, shares } = op.keyShares(cluster, required);
  const encodedVar = `${cluster}${s.suffix}Encoded`;
  let encoded: Ref | undefined;
  shares.forEach((key, i) => {
    const last = i === shares.length - 1;
    const answer = op.request(cluster, 'POST', s.update, {
      token: 'none',
      body: { key, nonce },
      label: `give ${owner}'s key share ${i + 1} of ${required}`,
      save: last ? { [encodedVar]: 'encoded_token' } : undefined,
      refusalMayRecord: true,
    });
    expectOutcome(answer, 'accept', `giving ${owner}'s key share ${i + 1} to ${cluster}'s ${s.what} attempt`);
    if (last) encoded = answer.saved[encodedVar];
  });
  if (!encoded) return null;
  return op.decode(encoded, start.saved[otpVar], `${cluster}${s.suffix}Token`, `decode the ${s.what} with the OTP`);
}

/**
 * A fresh DR operation token for a DR secondary, or null when the cluster refused to start an
 * attempt (crashed, or not a DR secondary: `prediction` says which the model expects). Once
 * started, every key share must be taken and the last must complete the attempt.
 */
export function obtainDrOperationToken(op: Operator, cluster: string, prediction: Prediction): Ref | null {
  return generate(op, cluster, DR_OPERATION_TOKEN, prediction);
}

/** A new root token generated on a running cluster that is not a DR secondary, or null when refused. */
export function obtainRootToken(op: Operator, cluster: string): Ref | null {
  return generate(op, cluster, ROOT_TOKEN, 'either');
}
