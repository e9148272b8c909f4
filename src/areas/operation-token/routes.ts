// Generation attempts, as Vault's generate-root machinery serves them: the DR operation token at
// sys/replication/dr/secondary/generate-operation-token (only on a DR secondary), a new root token
// at sys/generate-root (closed on a DR secondary), and operation-token/delete. The attempt's rules
// are the generation-attempt machine's; handlers only check, draw and describe events.
import { refusalReasonOf, type GenerationStrategy, type UpdateGenerationEvent } from '../../../models/generation-attempt.machine.js';
import { combineShares } from '../cluster/crypto/shamir.js';
import { OTP_LENGTH, encodeToken, generateOtp } from '../cluster/crypto/otp.js';
import { encryptTokenWithPgp, pgpFingerprint } from '../cluster/crypto/pgp.js';
import type { SimEvent } from '../cluster/events.js';
import { newServiceToken } from '../cluster/genesis.js';
import {
  WRONG_ROOT_KEY_ERROR,
  attemptSecretOf,
  attemptStatus,
  decodeKeyShare,
  type GenerationCompleted,
  type GenerationStarted,
} from './operation-token.js';
import type { ClusterState } from '../cluster/state.js';
import { isDrSecondary } from '../cluster/http/authorize.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type AuthRule, type Outcome, type RequestContext, type Route } from '../cluster/http/route.js';
import { generationRefusal, operationTokenRefusals as T } from './refusals.js';

const DR_ATTEMPT = 'sys/replication/dr/secondary/generate-operation-token/attempt';
const DR_UPDATE = 'sys/replication/dr/secondary/generate-operation-token/update';

/** Simulator wording: Vault's text for a DR-secondary endpoint on another kind of cluster is not public (facts file, gap 2). */
export function notDrSecondary(path: string, hint = ''): Reply {
  return T.notDrSecondary(path, hint);
}

/** The two ways to reach the machinery: which path, who may call, and on which clusters. */
interface StrategyRoutes {
  strategy: GenerationStrategy;
  attemptPath: string;
  updatePath: string;
  what: string;
  auth: AuthRule;
  /** A refusal before anything else (the DR strategy exists only on a DR secondary). */
  precondition(cluster: ClusterState, path: string): Reply | null;
}

const drStrategy: StrategyRoutes = {
  strategy: 'dr-operation-token',
  attemptPath: DR_ATTEMPT,
  updatePath: DR_UPDATE,
  what: 'DR operation token',
  // No client token: a DR secondary has none that work (facts file: the docs' calls carry none).
  auth: { token: 'none', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true },
  precondition: (cluster, path) => (isDrSecondary(cluster) ? null : notDrSecondary(path, '; use sys/generate-root/attempt to generate a root token instead')),
};

const rootStrategy: StrategyRoutes = {
  strategy: 'root',
  attemptPath: 'sys/generate-root/attempt',
  updatePath: 'sys/generate-root/update',
  what: 'root token',
  // Unauthenticated and restricted-root; a DR secondary keeps it closed and uses the DR strategy.
  auth: { token: 'none', rootNamespace: true },
  precondition: () => null,
};

const START_FIELDS = { pgp_key: { type: 'string', default: '' }, otp: { type: 'string', default: '' } } as const;
const UPDATE_FIELDS = { key: { type: 'string', default: '' }, nonce: { type: 'string', default: '' } } as const;

function readAttempt(s: StrategyRoutes) {
  return (ctx: RequestContext): Outcome => s.precondition(ctx.cluster, s.attemptPath) ?? reply.bare(attemptStatus(ctx.cluster, '', OTP_LENGTH));
}

function cancelAttempt(s: StrategyRoutes) {
  return (ctx: RequestContext): Outcome => {
    const refused = s.precondition(ctx.cluster, s.attemptPath);
    if (refused) return refused;
    // Nothing to forget: answer without an event, so the log only holds changes.
    if (ctx.cluster.generation.value === 'none' && attemptSecretOf(ctx.cluster) === null) return reply.empty();
    return { events: [{ type: 'generation-cancelled', at: ctx.now, cluster: ctx.cluster.name }], reply: () => reply.empty() };
  };
}

function startAttempt(s: StrategyRoutes) {
  return (ctx: RequestContext<typeof START_FIELDS>): Outcome => {
    const refused = s.precondition(ctx.cluster, s.attemptPath);
    if (refused) return refused;
    const { otp: givenOtp, pgp_key: pgpKey } = ctx.fields;
    const name = ctx.cluster.name;

    // Vault's order: the OTP's length, then the PGP key, then whether an attempt is already open.
    const inProgress = (): Reply | null => {
      const why = refusalReasonOf(ctx.cluster.generation, { type: 'start', strategy: s.strategy, nonce: '', required: 0, otpLength: 0, pgpFingerprint: '' });
      return why ? generationRefusal(why) : null;
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
      return { events: [event], reply: (after) => reply.bare(attemptStatus(after.clusters[name], shownOtp(secretOtp), OTP_LENGTH)) };
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

function giveKeyShare(s: StrategyRoutes) {
  return (ctx: RequestContext<typeof UPDATE_FIELDS>): Outcome => {
    const refused = s.precondition(ctx.cluster, s.updatePath);
    if (refused) return refused;
    const decoded = decodeKeyShare(ctx.fields.key);
    if ('error' in decoded) return T.badKeyShare(decoded.error);
    const { share } = decoded;
    const c = ctx.cluster;
    const nonce = ctx.fields.nonce;
    const update: UpdateGenerationEvent = { type: 'update', strategy: s.strategy, share, nonce };
    const why = refusalReasonOf(c.generation, update);
    if (why) return generationRefusal(why);

    const { providedShares, required, pgpFingerprint: fingerprint } = c.generation.context;
    const base = { at: ctx.now, cluster: c.name, strategy: s.strategy, nonce, share };
    if (providedShares.length + 1 < required) {
      const event: SimEvent = { type: 'generation-share-accepted', ...base };
      return { events: [event], reply: () => reply.bare(updateBody(s.strategy, nonce, providedShares.length + 1, required, fingerprint, '')) };
    }

    // The threshold is reached: recombine, and check the key really is this cluster's root key.
    let reason: string | null = null;
    try {
      if (combineShares([...providedShares, share]) !== c.storage.keyring.rootKeyHex.toLowerCase()) reason = WRONG_ROOT_KEY_ERROR;
    } catch (err) {
      reason = (err as Error).message;
    }
    if (reason !== null) {
      const event: SimEvent = { type: 'generation-aborted', ...base, reason };
      return { events: [event], reply: () => T.wrongRootKey(reason) };
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

function generationRoutes(s: StrategyRoutes): Route[] {
  return [
    {
      pattern: s.attemptPath,
      methods: {
        GET: endpoint({ summary: `read the ${s.what} generation attempt`, auth: s.auth, handle: readAttempt(s) }),
        // Vault's generate-root handlers decode JSON loosely: unknown parameters are not reported.
        POST: endpoint({ summary: `start a ${s.what} generation attempt`, auth: s.auth, fields: START_FIELDS, openBody: true, handle: startAttempt(s) }),
        DELETE: endpoint({ summary: `cancel the ${s.what} generation attempt`, auth: s.auth, openBody: true, handle: cancelAttempt(s) }),
      },
    },
    {
      pattern: s.updatePath,
      methods: {
        POST: endpoint({ summary: `give a key share to the ${s.what} generation attempt`, auth: s.auth, fields: UPDATE_FIELDS, openBody: true, handle: giveKeyShare(s) }),
      },
    },
  ];
}

/** The DR calls that need a DR operation token (authentication rule 2). */
export const drOperationTokenAuth: AuthRule = { token: 'dr-operation-token', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true };

const deleteOperationToken: Route = {
  pattern: 'sys/replication/dr/secondary/operation-token/delete',
  methods: {
    POST: endpoint({
      summary: 'delete the DR operation token',
      auth: drOperationTokenAuth,
      fields: { dr_operation_token: { type: 'string' } },
      // The rule has checked the token; deleting it is allowed wherever it is still valid.
      handle: (ctx) => ({ events: [{ type: 'dr-operation-token-deleted', at: ctx.now, cluster: ctx.cluster.name }], reply: () => reply.empty() }),
    }),
  },
};

export const operationTokenRoutes: Route[] = [...generationRoutes(drStrategy), deleteOperationToken, ...generationRoutes(rootStrategy)];

