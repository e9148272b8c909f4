// How the operation-token area's events change the world state (evolve): each step of a generation
// attempt is the generation-attempt machine's transition, applied to the cluster (the handler asked
// the machine first, decide/); completion mints the token. Reducers never draw and never read a clock.
import { onCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import { stepGenerationAttempt, type GenerationAttemptEvent } from '../../../models/generation-attempt.machine.js';
import type { ClusterState, TokenEntry } from '../core/state.js';
import type { DrOperationTokenDeleted, GenerationAborted, GenerationCancelled, GenerationCompleted, GenerationShareAccepted, GenerationStarted } from './events.js';
import { attemptSecretOf, GENERATED_ROOT_TOKEN_NAME, type AttemptSecret, type StoredGenerationAttempt } from './operation-token.js';

/** The cluster's attempt after the machine's step; a refusal here means the log contradicts the machine (a bug). */
function nextAttempt(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): StoredGenerationAttempt {
  const next = stepGenerationAttempt(c.generation, event);
  if (!next) throw new Error(`generation attempt on "${c.name}" refused a logged "${event.type}" event: the log and the machine disagree`);
  return next.value === 'inProgress' && secret ? { ...next, secret } : next;
}

/** The machine's step on a draft of the cluster. */
function step(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): void {
  c.generation = nextAttempt(c, event, secret);
}

const secretOfStart = (e: GenerationStarted): AttemptSecret => (e.otp !== '' ? { otp: e.otp } : { pgpKey: e.pgpKey });
const startOf = (e: GenerationStarted): GenerationAttemptEvent => ({ type: 'start', strategy: e.strategy, nonce: e.nonce, required: e.required, otpLength: e.otpLength, pgpFingerprint: e.pgpFingerprint });
const updateOf = (e: GenerationShareAccepted | GenerationAborted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: false });
const completeOf = (e: GenerationCompleted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: true, encodedToken: e.encodedToken });

/** The token store's entry of a generated root token. */
const generatedRoot = (e: GenerationCompleted): TokenEntry => ({ id: e.token, accessor: e.accessor, name: GENERATED_ROOT_TOKEN_NAME, namespace: '', policy: 'root' });

/** A share accepted, or the attempt aborted by one: the machine's `update` step, the attempt's secret kept. */
const updateStep = onCluster((c, e: GenerationShareAccepted | GenerationAborted) => {
  step(c, updateOf(e), attemptSecretOf(c) ?? undefined);
});

export const operationTokenReducers = {
  'generation-started': onCluster((c, e: GenerationStarted) => {
    step(c, startOf(e), secretOfStart(e));
  }),
  'generation-share-accepted': updateStep,
  'generation-aborted': updateStep,
  'generation-completed': onCluster((c, e: GenerationCompleted) => {
    step(c, completeOf(e));
    // A new DR operation token replaces any earlier one: a cluster holds at most one.
    if (e.strategy === 'dr-operation-token') c.drOperationToken = e.token;
    else {
      c.storage.tokens[e.token] = generatedRoot(e);
      // The token store is storage like any other: the write advances the WAL, so DR secondaries
      // (which mirror tokens) receive the new root token too.
      c.wal.last += 1;
      c.wal.lastAt = e.at;
    }
  }),
  'generation-cancelled': onCluster((c, _e: GenerationCancelled) => {
    step(c, { type: 'cancel' });
  }),
  'dr-operation-token-deleted': onCluster((c, _e: DrOperationTokenDeleted) => {
    c.drOperationToken = null;
  }),
} satisfies SimReducers;
