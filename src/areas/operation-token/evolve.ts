// How the operation-token area's events change the world state (evolve): each step of a generation
// attempt applies the row of the generation-attempt machine the handler took (decide/ asked the
// machine; the event's type names the row by its action: a share recorded, the shares discarded, the
// attempt finished, opened or cleared), without asking its guards again; completion mints the token.
// Reducers never draw and never read a clock.
import { onCluster } from '../core/reduce.js';
import { writeWal } from '../core/touched.js';
import type { SimReducers } from '../sim-area.js';
import { applyRecordedGeneration, type ContextUpdate, type GenerationAttemptEvent } from '../../../models/generation-attempt.machine.js';
import type { ClusterState, TokenEntry } from '../core/state.js';
import type { DrOperationTokenDeleted, GenerationAborted, GenerationCancelled, GenerationCompleted, GenerationShareAccepted, GenerationStarted } from './events.js';
import { attemptSecretOf, GENERATED_ROOT_TOKEN_NAME, type AttemptSecret, type StoredGenerationAttempt } from './operation-token.js';

/** The cluster's attempt after the row its event records (`action`); no such row in its state means the log contradicts the machine. */
function nextAttempt(c: ClusterState, event: GenerationAttemptEvent, action: ContextUpdate, secret?: AttemptSecret): StoredGenerationAttempt {
  const next = applyRecordedGeneration(c.generation, event, action);
  if (!next) throw new Error(`generation attempt on "${c.name}" has no "${event.type}" row doing ${action} in state ${c.generation.value}: the log and the machine disagree`);
  return next.value === 'inProgress' && secret ? { ...next, secret } : next;
}

/** The recorded row applied to a draft of the cluster. */
function step(c: ClusterState, event: GenerationAttemptEvent, action: ContextUpdate, secret?: AttemptSecret): void {
  c.generation = nextAttempt(c, event, action, secret);
}

const secretOfStart = (e: GenerationStarted): AttemptSecret => (e.otp !== '' ? { otp: e.otp } : { pgpKey: e.pgpKey });
const startOf = (e: GenerationStarted): GenerationAttemptEvent => ({ type: 'start', strategy: e.strategy, nonce: e.nonce, required: e.required, otpLength: e.otpLength, pgpFingerprint: e.pgpFingerprint });
const updateOf = (e: GenerationShareAccepted | GenerationAborted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: false });
const completeOf = (e: GenerationCompleted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: true, encodedToken: e.encodedToken });

/** The token store's entry of a generated root token. */
const generatedRoot = (e: GenerationCompleted): TokenEntry => ({ id: e.token, accessor: e.accessor, name: GENERATED_ROOT_TOKEN_NAME, namespace: '', policy: 'root' });

/** A share given to the attempt: recorded (`recordShare`) or, failing to recombine, all shares discarded (`discardShares`); the attempt's secret kept. */
const updateStep = (action: ContextUpdate) =>
  onCluster((c, e: GenerationShareAccepted | GenerationAborted) => {
    step(c, updateOf(e), action, attemptSecretOf(c) ?? undefined);
  });

export const operationTokenReducers = {
  'generation-started': onCluster((c, e: GenerationStarted) => {
    step(c, startOf(e), 'openAttempt', secretOfStart(e));
  }),
  'generation-share-accepted': updateStep('recordShare'),
  'generation-aborted': updateStep('discardShares'),
  'generation-completed': onCluster((c, e: GenerationCompleted, _before, touched) => {
    step(c, completeOf(e), 'finishAttempt');
    // A new DR operation token replaces any earlier one: a cluster holds at most one.
    if (e.strategy === 'dr-operation-token') c.drOperationToken = e.token;
    else {
      c.storage.tokens[e.token] = generatedRoot(e);
      // The token store is storage like any other: the write advances the WAL, so DR secondaries
      // (which mirror tokens) receive the new root token too.
      writeWal(c, e.at, touched);
    }
  }),
  'generation-cancelled': onCluster((c, _e: GenerationCancelled) => {
    step(c, { type: 'cancel' }, 'clearAttempt');
  }),
  'dr-operation-token-deleted': onCluster((c, _e: DrOperationTokenDeleted) => {
    c.drOperationToken = null;
  }),
} satisfies SimReducers;
