// The generation attempts' events as types only, apart from operation-token.ts so that the log's
// event union (cluster/events.ts) can name them without importing the reducers: no import cycle.
import type { GenerationStrategy } from '../../../models/generation-attempt.machine.js';
import type { BaseEvent } from '../../kernel/engine.js';

/** POST …/attempt was accepted: an attempt opened with a nonce (and OTP) drawn by the world. */
export interface GenerationStarted extends BaseEvent {
  type: 'generation-started';
  cluster: string;
  strategy: GenerationStrategy;
  nonce: string;
  /** Key shares needed: the keyring's threshold when the attempt opened. */
  required: number;
  otpLength: number;
  /** The OTP the token will be XORed with ("" with a PGP key). Kept for completion, never read back. */
  otp: string;
  /** The PGP public key the token will be encrypted to ("" with an OTP). */
  pgpKey: string;
  pgpFingerprint: string;
}

/** POST …/update gave a valid key share that did not reach the threshold: progress went up. */
export interface GenerationShareAccepted extends BaseEvent {
  type: 'generation-share-accepted';
  cluster: string;
  strategy: GenerationStrategy;
  nonce: string;
  /** The share in normal form (base64 of its bytes). */
  share: string;
}

/**
 * POST …/update gave the share that reached the threshold and the shares recombined the root key:
 * the world minted the token (DR operation token, or a new root token in the token store) and
 * encoded it for the operator. The attempt is over.
 */
export interface GenerationCompleted extends BaseEvent {
  type: 'generation-completed';
  cluster: string;
  strategy: GenerationStrategy;
  nonce: string;
  share: string;
  /** The new token, drawn by the world. */
  token: string;
  /** The new root token's accessor ("" for a DR operation token, which is not in the token store). */
  accessor: string;
  /** What the operator receives: base64 of token XOR OTP, or base64 of the PGP message. */
  encodedToken: string;
}

/**
 * POST …/update gave the share that reached the threshold, but the shares did not recombine the
 * root key: Vault drops the shares and answers with the reason; the attempt and its nonce stay.
 */
export interface GenerationAborted extends BaseEvent {
  type: 'generation-aborted';
  cluster: string;
  strategy: GenerationStrategy;
  nonce: string;
  share: string;
  /** The error the operator was given. */
  reason: string;
}

/** DELETE …/attempt: whatever attempt the cluster had is gone, with its progress. */
export interface GenerationCancelled extends BaseEvent {
  type: 'generation-cancelled';
  cluster: string;
}

/** POST …/operation-token/delete with the valid token: the DR operation token is revoked. */
export interface DrOperationTokenDeleted extends BaseEvent {
  type: 'dr-operation-token-deleted';
  cluster: string;
}

export type OperationTokenEvent =
  | GenerationStarted
  | GenerationShareAccepted
  | GenerationCompleted
  | GenerationAborted
  | GenerationCancelled
  | DrOperationTokenDeleted;

// This area's events, declared to the core's union of every event (cluster/events.ts).
declare module '../core/events.js' {
  interface AreaEvents {
    'operation-token': OperationTokenEvent;
  }
}
