// How the operation-token area's events change the world state (evolve): each step of a generation
// attempt is the generation-attempt machine's transition, applied to the cluster (the handler asked
// the machine first, decide/); completion mints the token. Reducers never draw and never read a clock.
//
// Each reducer is written as an edit of a draft and also carries a direct form (engine.ts
// `DirectForm`), which builds the same next cluster without an immer draft: obtaining a DR
// operation token takes four of these events, and the explorer and property runs obtain thousands
// (drafting each would be a sizeable share of the runs). What the direct forms build is what
// the drafts build (test/areas/operation-token/direct-forms.test.ts folds real runs both ways): new
// frozen objects along the path that changed, everything else shared, keys in the same order.
import type { DirectForm, DraftReducer, SimDraft } from '../core/draft.js';
import { stepGenerationAttempt, type GenerationAttemptEvent } from '../../../models/generation-attempt.machine.js';
import { PROTO_NAME } from '../../kernel/own.js';
import { advancedWal, copyCluster, deepFreeze, type ClusterState, type SimState, type TokenEntry } from '../core/state.js';
import type { DrOperationTokenDeleted, GenerationAborted, GenerationCancelled, GenerationCompleted, GenerationShareAccepted, GenerationStarted } from './events.js';
import { attemptSecretOf, GENERATED_ROOT_TOKEN_NAME, type AttemptSecret, type StoredGenerationAttempt } from './operation-token.js';

const freeze = Object.freeze;

/** The cluster's attempt after the machine's step; a refusal here means the log contradicts the machine (a bug). */
function nextAttempt(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): StoredGenerationAttempt {
  const next = stepGenerationAttempt(c.generation, event);
  if (!next) throw new Error(`generation attempt on "${c.name}" refused a logged "${event.type}" event: the log and the machine disagree`);
  return next.value === 'inProgress' && secret ? { ...next, secret } : next;
}

/** The machine's step on a draft's cluster. */
function step(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret): void {
  c.generation = nextAttempt(c, event, secret);
}

/**
 * A reducer with both forms: `edit` changes the draft, `direct` builds the next cluster from the
 * cluster as the state holds it (null: nothing changes; undefined: left to the draft form). An event
 * naming a cluster the world does not have is left to the draft form, which fails as it always did.
 */
function onCluster<E extends { cluster: string }>(edit: (d: SimDraft, e: E) => void, direct: (c: ClusterState, e: E) => ClusterState | null | undefined): DraftReducer<E & { type: string; at: number }> {
  const form: DirectForm<SimState, E & { type: string; at: number }> = (s, e) => {
    const c = s.clusters.get(e.cluster);
    if (!c) return undefined;
    const next = direct(c, e);
    if (next === undefined) return undefined;
    return next && { clusters: s.clusters.set(e.cluster, next) };
  };
  return Object.assign(edit, { direct: form });
}

/** The cluster with its attempt stepped (and any other fields the event sets), new and frozen. */
function stepped(c: ClusterState, event: GenerationAttemptEvent, secret?: AttemptSecret, also: Partial<ClusterState> = {}): ClusterState {
  // A literal copy, not a spread of the frozen cluster (state.ts, copyCluster): the same keys in the same order.
  const next = copyCluster(c);
  next.generation = deepFreeze(nextAttempt(c, event, secret));
  return freeze(Object.assign(next, also));
}

const secretOfStart = (e: GenerationStarted): AttemptSecret => (e.otp !== '' ? { otp: e.otp } : { pgpKey: e.pgpKey });
const startOf = (e: GenerationStarted): GenerationAttemptEvent => ({ type: 'start', strategy: e.strategy, nonce: e.nonce, required: e.required, otpLength: e.otpLength, pgpFingerprint: e.pgpFingerprint });
const updateOf = (e: GenerationShareAccepted | GenerationAborted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: false });
const completeOf = (e: GenerationCompleted): GenerationAttemptEvent => ({ type: 'update', strategy: e.strategy, nonce: e.nonce, share: e.share, keyMatches: true, encodedToken: e.encodedToken });

/** The token store's entry of a generated root token. */
const generatedRoot = (e: GenerationCompleted): TokenEntry => ({ id: e.token, accessor: e.accessor, name: GENERATED_ROOT_TOKEN_NAME, namespace: '', policy: 'root' });

/** A share accepted, or the attempt aborted by one: the machine's `update` step, the attempt's secret kept. */
const updateStep = onCluster<GenerationShareAccepted | GenerationAborted>(
  (d, e) => {
    const c = d.clusters[e.cluster];
    step(c, updateOf(e), attemptSecretOf(c) ?? undefined);
  },
  (c, e) => stepped(c, updateOf(e), attemptSecretOf(c) ?? undefined),
);

export const operationTokenReducers = {
  'generation-started': onCluster<GenerationStarted>(
    (d, e) => step(d.clusters[e.cluster], startOf(e), secretOfStart(e)),
    (c, e) => stepped(c, startOf(e), secretOfStart(e)),
  ),
  'generation-share-accepted': updateStep,
  'generation-aborted': updateStep,
  'generation-completed': onCluster<GenerationCompleted>(
    (d, e) => {
      const c = d.clusters[e.cluster];
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
    },
    (c, e) => {
      const event = completeOf(e);
      if (e.strategy === 'dr-operation-token') return stepped(c, event, undefined, { drOperationToken: e.token });
      // A token named like Object's prototype property would be a setter call in the draft's
      // assignment and an own key in a spread: such a (forged) history keeps its old path.
      if (e.token === PROTO_NAME) return undefined;
      const tokens = freeze({ ...c.storage.tokens, [e.token]: freeze(generatedRoot(e)) });
      return stepped(c, event, undefined, { storage: freeze({ ...c.storage, tokens }), wal: advancedWal(c.wal, e.at) });
    },
  ),
  'generation-cancelled': onCluster<GenerationCancelled>(
    (d, e) => step(d.clusters[e.cluster], { type: 'cancel' }),
    (c) => stepped(c, { type: 'cancel' }),
  ),
  'dr-operation-token-deleted': onCluster<DrOperationTokenDeleted>(
    (d, e) => {
      d.clusters[e.cluster].drOperationToken = null;
    },
    // Setting what is already there changes nothing, as in the draft.
    (c) => {
      if (c.drOperationToken === null) return null;
      const next = copyCluster(c);
      next.drOperationToken = null;
      return freeze(next);
    },
  ),
};
