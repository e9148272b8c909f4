// Generation attempts (a DR operation token on a DR secondary, a root token through
// sys/generate-root) and the DR operation token itself. The attempt's rules live in the
// generation-attempt machine; this module applies its steps to the world state, mints the token at
// completion, and keeps what only completion may use (the OTP or the PGP key) out of every read.
import {
  isAttemptStarted,
  stepGenerationAttempt,
  type GenerationAttemptEvent,
  type GenerationAttemptState,
  type GenerationStrategy,
} from '../../../models/generation-attempt.machine.js';
import type { BaseEvent } from '../../kernel/engine.js';
import type { ClusterState, SimState } from '../cluster/state.js';
import type { DrOperationTokenDeleted, GenerationAborted, GenerationCancelled, GenerationCompleted, GenerationShareAccepted, GenerationStarted, OperationTokenEvent } from './events.js';
export type * from './events.js';

/** The name a generated root token carries in the token store, for narration. */
export const GENERATED_ROOT_TOKEN_NAME = 'generated-root';

// Vault accepts a key share of 16 bytes up to the barrier key plus one byte (the x-coordinate), and
// reads a key given as hex outside that window as base64 instead. replsim's shares are longer than
// Vault's (crypto/shamir pads the 32-byte root key to 48 bytes before adding the x-coordinate), so
// the upper bound is the simulator's share length.
const KEY_MIN_BYTES = 16;
const KEY_MAX_BYTES = 48 + 1;

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64_STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Vault's error when the recombined key does not open the stored keys (wrong or foreign shares):
 * the strategy's authenticate step fails inside unsealKeyToRootKeyPostUnseal (vault/generate_root.go,
 * vault/core.go, vault/seal.go; the chain is assembled from those sources).
 */
export const WRONG_ROOT_KEY_ERROR =
  'root generation aborted: unable to authenticate: unable to retrieve stored keys: invalid key: failed to decrypt keys from storage: cipher: message authentication failed';

/** How the finished token will be handed out: XORed with an OTP, or encrypted to a PGP key. */
export type AttemptSecret = { otp: string } | { pgpKey: string };

/**
 * The attempt as a cluster keeps it: the machine's plain state, plus the OTP or PGP key the
 * completing update needs. The secret sits beside the machine's state (the machine neither needs
 * nor keeps it) and no reply ever includes it (invariant `otp-never-returned`).
 */
export type StoredGenerationAttempt = GenerationAttemptState & { secret?: AttemptSecret };


/** The secret of the cluster's open attempt, or null when none is open. */
export function attemptSecretOf(c: ClusterState): AttemptSecret | null {
  return (c.generation as StoredGenerationAttempt).secret ?? null;
}

/**
 * A key share as the operator typed it, decoded the way Vault's update handler does: hex when it
 * is hex of a plausible length, else standard base64. Returns the share's normal form (base64) or
 * Vault's error text.
 */
export function decodeKeyShare(key: string): { share: string } | { error: string } {
  if (key === '') return { error: "'key' must be specified in request body as JSON" };
  let bytes: Buffer | null = null;
  if (HEX.test(key)) {
    const hex = Buffer.from(key, 'hex');
    if (hex.length >= KEY_MIN_BYTES && hex.length <= KEY_MAX_BYTES) bytes = hex;
  }
  if (!bytes) {
    const compact = key.replace(/[\r\n]/g, '');
    if (!BASE64_STD.test(compact)) return { error: "'key' must be a valid hex or base64 string" };
    bytes = Buffer.from(compact, 'base64');
  }
  if (bytes.length < KEY_MIN_BYTES) return { error: `invalid key: key is shorter than minimum ${KEY_MIN_BYTES} bytes` };
  if (bytes.length > KEY_MAX_BYTES) return { error: `invalid key: key is longer than maximum ${KEY_MAX_BYTES} bytes` };
  return { share: bytes.toString('base64') };
}

/**
 * The attempt status Vault returns (bare, no envelope) from GET and POST …/attempt. A finished
 * attempt reads as not started, as Vault forgets it. `otp` is set only by the start response, when
 * the server generated it; every read passes nothing and gets "".
 */
export function attemptStatus(c: ClusterState, otp = '', otpLength: number) {
  const gen = c.generation;
  const started = isAttemptStarted(gen);
  return {
    nonce: started ? gen.context.nonce : '',
    started,
    progress: started ? gen.context.providedShares.length : 0,
    required: c.storage.keyring.threshold,
    complete: false,
    encoded_token: '',
    encoded_root_token: '',
    pgp_fingerprint: started ? gen.context.pgpFingerprint : '',
    otp,
    otp_length: otpLength,
  };
}

/** Steps the cluster's attempt; a refusal here means the log contradicts the machine (a bug). */
function step(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): void {
  const next = stepGenerationAttempt(c.generation, event);
  if (!next) throw new Error(`generation attempt on "${c.name}" refused a logged "${event.type}" event: the log and the machine disagree`);
  const stored: StoredGenerationAttempt = next.value === 'inProgress' && secret ? { ...next, secret } : next;
  c.generation = stored;
}

export const operationTokenReducers = {
  'generation-started': (d: SimState, e: GenerationStarted) => {
    const c = d.clusters[e.cluster];
    const secret: AttemptSecret = e.otp !== '' ? { otp: e.otp } : { pgpKey: e.pgpKey };
    step(c, { type: 'start', strategy: e.strategy, nonce: e.nonce, required: e.required, otpLength: e.otpLength, pgpFingerprint: e.pgpFingerprint }, secret);
  },
  'generation-share-accepted': (d: SimState, e: GenerationShareAccepted) => {
    const c = d.clusters[e.cluster];
    step(c, { type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share }, attemptSecretOf(c) ?? undefined);
  },
  'generation-aborted': (d: SimState, e: GenerationAborted) => {
    const c = d.clusters[e.cluster];
    step(c, { type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share }, attemptSecretOf(c) ?? undefined);
  },
  'generation-completed': (d: SimState, e: GenerationCompleted) => {
    const c = d.clusters[e.cluster];
    step(c, { type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, encodedToken: e.encodedToken });
    // A new DR operation token replaces any earlier one: a cluster holds at most one.
    if (e.strategy === 'dr-operation-token') c.drOperationToken = e.token;
    else {
      c.storage.tokens[e.token] = { id: e.token, accessor: e.accessor, name: GENERATED_ROOT_TOKEN_NAME, namespace: '', policy: 'root' };
      // The token store is storage like any other: the write advances the WAL, so DR secondaries
      // (which mirror tokens) receive the new root token too.
      c.wal.last += 1;
      c.wal.lastAt = e.at;
    }
  },
  'generation-cancelled': (d: SimState, e: GenerationCancelled) => {
    step(d.clusters[e.cluster], { type: 'cancel' });
  },
  'dr-operation-token-deleted': (d: SimState, e: DrOperationTokenDeleted) => {
    d.clusters[e.cluster].drOperationToken = null;
  },
};
