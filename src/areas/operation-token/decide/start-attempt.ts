// POST …/attempt: opens an attempt (one at a time, A.7: the generation-attempt machine decides), with
// the operator's OTP, a PGP key, or an OTP the server draws and shows in this response only.
import { askGenerationAttempt } from '../../../../models/generation-attempt.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { OTP_LENGTH, generateOtp } from '../../core/crypto/otp.js';
import { pgpFingerprint } from '../../core/crypto/pgp.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { attemptStatus, type GenerationStarted } from '../operation-token.js';
import { generationRefusal, operationTokenRefusals as T } from '../refusals.js';
import type { Strategy } from './strategy.js';

export const fields = { pgp_key: { type: 'string', default: '' }, otp: { type: 'string', default: '' } } as const;

export function decide(s: Strategy) {
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const refused = s.precondition(ctx.cluster, s.attemptPath);
    if (refused) return refused;
    const { otp: givenOtp, pgp_key: pgpKey } = ctx.fields;
    const name = ctx.cluster.name;

    // Vault's order: the OTP's length, then the PGP key, then whether an attempt is already open.
    const inProgress = (): Reply | null => {
      const answer = askGenerationAttempt(ctx.cluster.generation, { type: 'start', strategy: s.strategy, nonce: '', required: 0, otpLength: 0, pgpFingerprint: '' });
      return 'refused' in answer ? generationRefusal(answer.refused, 'start', ctx.cluster.generation) : null;
    };
    const open = (otp: string, key: string, fingerprint: string, shownOtp: (drawn: string) => string): Outcome => {
      const nonce = ctx.rng.uuid();
      const secretOtp = otp === '' && key === '' ? generateOtp(ctx.rng) : otp;
      const event: GenerationStarted = {
        type: 'generation-started',
        at: ctx.now,
        cluster: name,
        strategy: s.strategy,
        nonce,
        required: ctx.cluster.storage.keyring.threshold,
        otpLength: OTP_LENGTH,
        otp: secretOtp,
        pgpKey: secretOtp === '' ? key : '',
        pgpFingerprint: fingerprint,
      };
      return { events: [event], reply: (after) => reply.bare(attemptStatus(after.clusters.named(name), shownOtp(secretOtp), OTP_LENGTH)) };
    };

    if (givenOtp !== '') {
      // Go's len() counts bytes: the OTP is XORed byte for byte with the token.
      if (Buffer.byteLength(givenOtp, 'utf8') !== OTP_LENGTH) return T.otpLength();
      // An OTP given by the operator wins over a PGP key, and the response does not repeat it.
      return inProgress() ?? open(givenOtp, '', '', () => '');
    }
    if (pgpKey !== '') {
      // Reading the key is asynchronous (openpgp): only World.sendAsync can carry this request.
      return {
        later: async () => {
          let fingerprint: string;
          try {
            fingerprint = await pgpFingerprint(pgpKey);
          } catch (err) {
            return T.badPgpKey((err as Error).message);
          }
          const r = inProgress() ?? open('', pgpKey, fingerprint, () => '');
          if ('later' in r) throw new Error('unreachable: opening an attempt is synchronous');
          return r;
        },
      };
    }
    // Neither given: the server generates the OTP and shows it in this response, and only here.
    return inProgress() ?? open('', '', '', (drawn) => drawn);
  };
}
