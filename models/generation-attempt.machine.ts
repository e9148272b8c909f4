import { and, assign, not, setup, transition } from 'xstate';

/** Which kind of token the attempt will mint: a DR operation token or a standard root token. */
export type GenerationStrategy = 'dr-operation-token' | 'root';

export interface GenerationAttemptContext {
  /** null while no attempt has been started. */
  strategy: GenerationStrategy | null;
  nonce: string;
  /** Key shares needed to complete: the seal's threshold. */
  required: number;
  /** Normalised key shares supplied so far, kept to refuse duplicates and to recombine the key. */
  providedShares: string[];
  /** Hex fingerprint of the PGP key the token is encrypted to, "" when an OTP is used. */
  pgpFingerprint: string;
  otpLength: number;
  /** Set only by the completing update. */
  encodedToken: string;
}

/** The operator (POST …/attempt) opens an attempt on a cluster; the world has drawn the nonce. */
export type StartGenerationEvent = {
  type: 'start';
  strategy: GenerationStrategy;
  nonce: string;
  required: number;
  otpLength: number;
  pgpFingerprint: string;
};

/**
 * The operator (POST …/update) gives the cluster one key share. When this share reaches the
 * threshold, the world recombines the key and, if it is the right one, passes the encoded token;
 * a threshold-reaching update without `encodedToken` means the recombined key was wrong.
 */
export type UpdateGenerationEvent = {
  type: 'update';
  strategy: GenerationStrategy;
  share: string;
  nonce: string;
  encodedToken?: string;
};

/** The operator (DELETE …/attempt) abandons whatever attempt the cluster has. */
export type CancelGenerationEvent = { type: 'cancel' };

export type GenerationAttemptEvent = StartGenerationEvent | UpdateGenerationEvent | CancelGenerationEvent;

/** A generation attempt as plain data, the way the world stores it. */
export type GenerationAttemptState = {
  value: 'none' | 'inProgress' | 'complete';
  context: GenerationAttemptContext;
};

function emptyContext(required: number): GenerationAttemptContext {
  return { strategy: null, nonce: '', required, providedShares: [], pgpFingerprint: '', otpLength: 0, encodedToken: '' };
}

// The spec's conditions as plain predicates, shared by the machine's guards and by refusalOf so the
// two cannot disagree about why an update is refused.
const nonceMatches = (context: GenerationAttemptContext, event: UpdateGenerationEvent) => event.nonce === context.nonce;
const strategyMatches = (context: GenerationAttemptContext, event: UpdateGenerationEvent) =>
  event.strategy === context.strategy;
const shareNotYetProvided = (context: GenerationAttemptContext, event: UpdateGenerationEvent) =>
  !context.providedShares.includes(event.share);
const thresholdReached = (context: GenerationAttemptContext) => context.providedShares.length + 1 >= context.required;

// Guards only ever see the events their state handles, so narrowing by type is a formality.
const onUpdate =
  (predicate: (context: GenerationAttemptContext, event: UpdateGenerationEvent) => boolean) =>
  ({ context, event }: { context: GenerationAttemptContext; event: GenerationAttemptEvent }) =>
    event.type === 'update' && predicate(context, event);

/** The machine's actions as plain functions of the context and the event: the new context. */
const CONTEXT_UPDATES = {
  openAttempt: (context: GenerationAttemptContext, event: GenerationAttemptEvent): GenerationAttemptContext =>
    event.type === 'start'
      ? {
          strategy: event.strategy,
          nonce: event.nonce,
          required: event.required,
          providedShares: [],
          pgpFingerprint: event.pgpFingerprint,
          otpLength: event.otpLength,
          encodedToken: '',
        }
      : context,
  recordShare: (context: GenerationAttemptContext, event: GenerationAttemptEvent): GenerationAttemptContext => ({
    ...context,
    providedShares: event.type === 'update' ? [...context.providedShares, event.share] : context.providedShares,
  }),
  finishAttempt: (context: GenerationAttemptContext, event: GenerationAttemptEvent): GenerationAttemptContext => ({
    ...context,
    providedShares: [],
    encodedToken: event.type === 'update' ? (event.encodedToken ?? '') : context.encodedToken,
  }),
  discardShares: (context: GenerationAttemptContext, _event: GenerationAttemptEvent): GenerationAttemptContext => ({ ...context, providedShares: [] }),
  clearAttempt: (context: GenerationAttemptContext, _event: GenerationAttemptEvent): GenerationAttemptContext => emptyContext(context.required),
};
type ContextUpdate = keyof typeof CONTEXT_UPDATES;

/*
 * The one generation attempt a cluster may have, for a DR operation token or a root token: opened
 * with a nonce, fed key shares one at a time, and finished when the threshold is met (the token goes
 * out in that update's response) or cancelled. Vault forgets a finished attempt, so `complete` only
 * keeps the token for the response and otherwise behaves like `none`.
 */
export const generationAttemptMachine = setup({
  types: {
    context: {} as GenerationAttemptContext,
    events: {} as GenerationAttemptEvent,
    input: {} as { required: number },
  },
  guards: {
    nonceMatches: onUpdate(nonceMatches),
    strategyMatches: onUpdate(strategyMatches),
    shareNotYetProvided: onUpdate(shareNotYetProvided),
    thresholdReached: ({ context }) => thresholdReached(context),
    tokenEncoded: ({ event }) => event.type === 'update' && event.encodedToken !== undefined,
  },
  // Each action is one of the plain context updates below (`CONTEXT_UPDATES`), so the memoised step
  // (`stepGenerationAttempt`) applies exactly what the machine's actions apply.
  actions: {
    openAttempt: assign(({ context, event }) => CONTEXT_UPDATES.openAttempt(context, event)),
    recordShare: assign(({ context, event }) => CONTEXT_UPDATES.recordShare(context, event)),
    finishAttempt: assign(({ context, event }) => CONTEXT_UPDATES.finishAttempt(context, event)),
    // Vault drops the shares of a failed recombination but keeps the attempt and its nonce.
    discardShares: assign(({ context, event }) => CONTEXT_UPDATES.discardShares(context, event)),
    clearAttempt: assign(({ context, event }) => CONTEXT_UPDATES.clearAttempt(context, event)),
  },
}).createMachine({
  id: 'generationAttempt',
  context: ({ input }) => emptyContext(input.required),
  initial: 'none',
  // DELETE …/attempt always succeeds, with or without an attempt.
  on: { cancel: { target: '.none', actions: 'clearAttempt' } },
  states: {
    none: {
      on: { start: { target: 'inProgress', actions: 'openAttempt' } },
    },
    inProgress: {
      on: {
        update: [
          {
            guard: and(['nonceMatches', 'strategyMatches', 'shareNotYetProvided', not('thresholdReached')]),
            actions: 'recordShare',
          },
          {
            guard: and(['nonceMatches', 'strategyMatches', 'shareNotYetProvided', 'tokenEncoded']),
            target: 'complete',
            actions: 'finishAttempt',
          },
          {
            guard: and(['nonceMatches', 'strategyMatches', 'shareNotYetProvided']),
            actions: 'discardShares',
          },
        ],
      },
    },
    complete: {
      on: { start: { target: 'inProgress', actions: 'openAttempt' } },
    },
  },
});

/** The state of a cluster that has never started an attempt. */
export function initialGenerationAttempt(required: number): GenerationAttemptState {
  return { value: 'none', context: emptyContext(required) };
}

/** What the machine does for one combination of state value and guard facts: where it goes, and which actions it runs. */
type Outcome = { value: GenerationAttemptState['value']; actions: ContextUpdate[] } | null;

/**
 * The state value, the event's type and every fact the guards read, as a key: the machine's choice
 * of transition depends on nothing else (its actions then read the context and the event).
 */
function factsKey(state: GenerationAttemptState, event: GenerationAttemptEvent): string {
  if (event.type !== 'update') return `${state.value}|${event.type}`;
  const c = state.context;
  return `${state.value}|update|${nonceMatches(c, event)}|${strategyMatches(c, event)}|${shareNotYetProvided(c, event)}|${thresholdReached(c)}|${event.encodedToken !== undefined}`;
}

const outcomes = new Map<string, Outcome>();

/** Asks the machine (xstate's pure `transition` builds an inert actor per call: ~90 µs) which transition it takes. */
function outcomeOf(state: GenerationAttemptState, event: GenerationAttemptEvent): Outcome {
  const snapshot = generationAttemptMachine.resolveState({ value: state.value, context: state.context });
  if (!snapshot.can(event)) return null;
  const [next] = transition(generationAttemptMachine, snapshot, event);
  const actions = generationAttemptMachine.getTransitionData(snapshot, event).flatMap((t) => t.actions);
  for (const a of actions)
    if (typeof a !== 'string' || !Object.hasOwn(CONTEXT_UPDATES, a)) throw new Error(`generation attempt machine: action ${String(a)} is not one of CONTEXT_UPDATES`);
  return { value: next.value as GenerationAttemptState['value'], actions: actions as ContextUpdate[] };
}

/**
 * The state after `event`, or null when the attempt refuses it (see refusalOf for the reason). Each
 * combination of value and guard facts is asked of the machine once and remembered (as for the role
 * machine); the remembered actions are then applied to this context. Tested equal to xstate's
 * `transition` on every row and on random inputs (test/models/generation-attempt-memo.test.ts).
 */
export function stepGenerationAttempt(
  state: GenerationAttemptState,
  event: GenerationAttemptEvent,
): GenerationAttemptState | null {
  const key = factsKey(state, event);
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    outcome = outcomeOf(state, event);
    outcomes.set(key, outcome);
  }
  if (outcome === null) return null;
  let context = state.context;
  for (const a of outcome.actions) context = CONTEXT_UPDATES[a](context, event);
  return { value: outcome.value, context };
}

/** The machine's own answer, through xstate's `transition` (the reference the memoised step is tested against). */
export function transitionGenerationAttempt(state: GenerationAttemptState, event: GenerationAttemptEvent): GenerationAttemptState | null {
  const snapshot = generationAttemptMachine.resolveState({ value: state.value, context: state.context });
  if (!snapshot.can(event)) return null;
  const [next] = transition(generationAttemptMachine, snapshot, event);
  return { value: next.value as GenerationAttemptState['value'], context: next.context };
}

/** Why the machine refuses an event, as data: the API registers one refusal per reason (operation-token/refusals.ts). */
export type GenerationRefusal =
  | { reason: 'in-progress' }
  | { reason: 'not-started' }
  | { reason: 'wrong-nonce'; nonce: string }
  | { reason: 'wrong-strategy' }
  | { reason: 'share-repeated' };

/** Why `event` is refused in `state`, or null when the event is allowed; in Vault's order of checks. */
export function refusalReasonOf(state: GenerationAttemptState, event: GenerationAttemptEvent): GenerationRefusal | null {
  const { value, context } = state;
  switch (event.type) {
    case 'start':
      return value === 'inProgress' ? { reason: 'in-progress' } : null;
    case 'cancel':
      return null;
    case 'update':
      // Same order as Vault's GenerateRootUpdate, so the first failing check names the error.
      if (value !== 'inProgress') return { reason: 'not-started' };
      if (!nonceMatches(context, event)) return { reason: 'wrong-nonce', nonce: context.nonce };
      if (!strategyMatches(context, event)) return { reason: 'wrong-strategy' };
      if (!shareNotYetProvided(context, event)) return { reason: 'share-repeated' };
      return null;
  }
}

/** Vault's error text for a refusal reason. */
export function generationRefusalText(r: GenerationRefusal): string {
  switch (r.reason) {
    case 'in-progress':
      return 'root generation already in progress';
    case 'not-started':
      return 'no root generation in progress';
    case 'wrong-nonce':
      return `incorrect nonce supplied; nonce for this root generation operation is ${JSON.stringify(r.nonce)}`;
    case 'wrong-strategy':
      return 'incorrect strategy supplied; a generate root operation of another type is already in progress';
    case 'share-repeated':
      return 'given key has already been provided during this generation operation';
  }
}

/** Vault's error text for refusing `event` in `state`, or null when the event is allowed. */
export function refusalOf(state: GenerationAttemptState, event: GenerationAttemptEvent): string | null {
  const why = refusalReasonOf(state, event);
  return why ? generationRefusalText(why) : null;
}

/** Whether a status read reports the attempt as started: a completed attempt no longer is. */
export function isAttemptStarted(state: GenerationAttemptState): boolean {
  return state.value === 'inProgress';
}
