// POST …/update: one key share (with the attempt's nonce: the generation-attempt machine decides);
// at the threshold the shares are recombined and checked against the cluster's root key, and the
// token is drawn and given encoded (OTP) or encrypted (PGP).
import { askGenerationAttempt, type GenerationStrategy, type UpdateGenerationEvent } from '../../../../models/generation-attempt.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { combineShares } from '../../core/crypto/shamir.js';
import { encodeToken } from '../../core/crypto/otp.js';
import { encryptTokenWithPgp } from '../../core/crypto/pgp.js';
import type { SimEvent } from '../../core/events.js';
import { newServiceToken } from '../../core/tokens.js';
import { reply } from '../../../kernel/http/http.js';
import { WRONG_ROOT_KEY_ERROR, attemptSecretOf, decodeKeyShare, type GenerationCompleted } from '../operation-token.js';
import { generationRefusal, operationTokenRefusals as T } from '../refusals.js';
import type { Strategy } from './strategy.js';

export const fields = { key: { type: 'string', default: '' }, nonce: { type: 'string', default: '' } } as const;

/** The bare body of an update response (Vault's GenerateRootStatusResponse as the update fills it). */
function updateBody(strategy: GenerationStrategy, nonce: string, progress: number, required: number, pgpFingerprintText: string, encoded: string) {
  return {
    nonce,
    started: true,
    progress,
    required,
    complete: encoded !== '',
    encoded_token: encoded,
    encoded_root_token: strategy === 'root' ? encoded : '',
    pgp_fingerprint: pgpFingerprintText,
    otp: '',
    otp_length: 0,
  };
}

export function decide(s: Strategy) {
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const refused = s.precondition(ctx.cluster, s.updatePath);
    if (refused) return refused;
    const decoded = decodeKeyShare(ctx.fields.key);
    if ('error' in decoded) return T.badKeyShare(decoded.error);
    const { share } = decoded;
    const c = ctx.cluster;
    const nonce = ctx.fields.nonce;
    const { providedShares, required, pgpFingerprint: fingerprint } = c.generation.context;
    // The fact the machine needs: do the shares given so far and this one recombine to this
    // cluster's root key? Whether the threshold is reached, and so what the fact means, it decides.
    let reason: string | null = null;
    try {
      if (combineShares([...providedShares, share]) !== c.storage.keyring.rootKeyHex.toLowerCase()) reason = WRONG_ROOT_KEY_ERROR;
    } catch (err) {
      reason = (err as Error).message;
    }
    const update: UpdateGenerationEvent = { type: 'update', strategy: s.strategy, share, nonce, keyMatches: reason === null };
    const answer = askGenerationAttempt(c.generation, update);
    if ('refused' in answer) return generationRefusal(answer.refused, 'update', c.generation);

    const base = { at: ctx.now, cluster: c.name, strategy: s.strategy, nonce, share };
    if (answer.actions.includes('recordShare')) {
      const event: SimEvent = { type: 'generation-share-accepted', ...base };
      return { events: [event], reply: () => reply.bare(updateBody(s.strategy, nonce, providedShares.length + 1, required, fingerprint, '')) };
    }
    if (answer.actions.includes('discardShares')) {
      const why = reason ?? WRONG_ROOT_KEY_ERROR;
      const event: SimEvent = { type: 'generation-aborted', ...base, reason: why };
      return { events: [event], reply: () => T.wrongRootKey(why) };
    }

    const secret = attemptSecretOf(c);
    if (!secret) throw new Error(`generation attempt on "${c.name}" is open without its OTP or PGP key`);
    const token = newServiceToken(ctx.rng);
    const accessor = s.strategy === 'root' ? ctx.rng.base62(24) : '';
    const finish = (encodedToken: string) => {
      const event: GenerationCompleted = { type: 'generation-completed', ...base, token, accessor, encodedToken };
      return { events: [event], reply: () => reply.bare(updateBody(s.strategy, nonce, required, required, fingerprint, encodedToken)) };
    };
    if ('otp' in secret) return finish(encodeToken(token, secret.otp));
    // The key was read when the attempt opened, so encryption cannot fail on it; its ciphertext is
    // random by design and goes into the event, which is what replay uses.
    return { later: async () => finish(await encryptTokenWithPgp(token, secret.pgpKey)) };
  };
}
