// Generation attempts (a DR operation token on a DR secondary, a root token through
// sys/generate-root) and the DR operation token itself. The attempt's rules live in the
// generation-attempt machine; evolve.ts applies its steps to the world state and mints the token at
// completion; this module keeps what only completion may use (the OTP or the PGP key) out of every read.
import { isAttemptStarted, type GenerationAttemptState, type GenerationStrategy } from '../../../models/generation-attempt.machine.js';
import type { BaseEvent } from '../../kernel/engine.js';
import type { ClusterState } from '../core/state.js';
import type { OperationTokenEvent } from './events.js';
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


// The operation-token area's part of a cluster's state, declared to the core (core/state.ts).
declare module '../core/state.js' {
  interface AreaClusterState {
    /** The one generation attempt (DR operation token or root token) a cluster may have. */
    generation: GenerationAttemptState;
    /** The DR operation token currently valid on this cluster, if any. */
    drOperationToken: string | null;
  }
}
