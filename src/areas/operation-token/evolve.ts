// How the operation-token area's events change the world state (evolve): each step of a generation
// attempt is the generation-attempt machine's transition, applied to the cluster (the handler asked
// the machine first, decide/); completion mints the token. Reducers never draw and never read a clock.
import type { SimDraft } from '../cluster/draft.js';
import { stepGenerationAttempt, type GenerationAttemptEvent } from '../../../models/generation-attempt.machine.js';
import type { ClusterState, SimState } from '../cluster/state.js';
import type { DrOperationTokenDeleted, GenerationAborted, GenerationCancelled, GenerationCompleted, GenerationShareAccepted, GenerationStarted } from './events.js';
import { attemptSecretOf, GENERATED_ROOT_TOKEN_NAME, type AttemptSecret, type StoredGenerationAttempt } from './operation-token.js';

/** Steps the cluster's attempt; a refusal here means the log contradicts the machine (a bug). */
function step(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): void {
  const next = stepGenerationAttempt(c.generation, event);
  if (!next) throw new Error(`generation attempt on "${c.name}" refused a logged "${event.type}" event: the log and the machine disagree`);
  const stored: StoredGenerationAttempt = next.value === 'inProgress' && secret ? { ...next, secret } : next;
  c.generation = stored;
}

export const operationTokenReducers = {
  'generation-started': (d: SimDraft, e: GenerationStarted) => {
    const c = d.clusters[e.cluster];
    const secret: AttemptSecret = e.otp !== '' ? { otp: e.otp } : { pgpKey: e.pgpKey };
    step(c, { type: 'start', strategy: e.strategy, nonce: e.nonce, required: e.required, otpLength: e.otpLength, pgpFingerprint: e.pgpFingerprint }, secret);
  },
  'generation-share-accepted': (d: SimDraft, e: GenerationShareAccepted) => {
    const c = d.clusters[e.cluster];
    step(c, { type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share }, attemptSecretOf(c) ?? undefined);
  },
  'generation-aborted': (d: SimDraft, e: GenerationAborted) => {
    const c = d.clusters[e.cluster];
    step(c, { type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share }, attemptSecretOf(c) ?? undefined);
  },
  'generation-completed': (d: SimDraft, e: GenerationCompleted) => {
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
  'generation-cancelled': (d: SimDraft, e: GenerationCancelled) => {
    step(d.clusters[e.cluster], { type: 'cancel' });
  },
  'dr-operation-token-deleted': (d: SimDraft, e: DrOperationTokenDeleted) => {
    d.clusters[e.cluster].drOperationToken = null;
  },
};
