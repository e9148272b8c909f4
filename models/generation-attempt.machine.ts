import { and, assign, not, setup } from 'xstate';
import { ask, rowTaking, type Answer } from './ask.js';
export { NO_ROW } from './ask.js';

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
 * The operator (POST …/update) gives the cluster one key share. The handler states whether the
 * shares given so far and this one recombine to the cluster's root key (`keyMatches`); the machine
 * decides whether the threshold is reached, and so whether that fact completes or aborts the
 * attempt. The completing update carries the encoded token the response gives out.
 */
export type UpdateGenerationEvent = {
  type: 'update';
  strategy: GenerationStrategy;
  share: string;
  nonce: string;
  keyMatches: boolean;
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

// The spec's conditions as plain predicates of the context and the update.
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
export type ContextUpdate = keyof typeof CONTEXT_UPDATES;

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
    recombinesToRootKey: ({ event }) => event.type === 'update' && event.keyMatches,
  },
  // Each action is one of the plain context updates above (`CONTEXT_UPDATES`), so the step
  // (`applyGenerationAnswer`) applies exactly what the machine's actions apply, by name.
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
            guard: and(['nonceMatches', 'strategyMatches', 'shareNotYetProvided', 'recombinesToRootKey']),
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

/**
 * The machine's answer to a request (models/ask.ts): where the attempt goes and the actions of the
 * row taken, or the guard that refused (`NO_ROW`: no attempt to update, or one already in progress).
 */
export function askGenerationAttempt(state: GenerationAttemptState, event: GenerationAttemptEvent): Answer {
  return ask(generationAttemptMachine, state.value, state.context, event);
}

/** The state the answer leads to: its actions, by name, applied to the context. */
export function applyGenerationAnswer(state: GenerationAttemptState, answer: Extract<Answer, { next: string }>, event: GenerationAttemptEvent): GenerationAttemptState {
  let context = state.context;
  for (const a of answer.actions) {
    if (!Object.hasOwn(CONTEXT_UPDATES, a)) throw new Error(`generation attempt machine: action ${a} is not one of CONTEXT_UPDATES`);
    context = CONTEXT_UPDATES[a as ContextUpdate](context, event);
  }
  return { value: answer.next as GenerationAttemptState['value'], context };
}

/**
 * The state after the row a handler took, as its event records it (the row's action, `action`):
 * the row's actions applied to the context, the guards not asked again. Null when the table has no
 * such row in this state (a history that contradicts the machine).
 */
export function applyRecordedGeneration(state: GenerationAttemptState, event: GenerationAttemptEvent, action: ContextUpdate): GenerationAttemptState | null {
  const row = rowTaking(generationAttemptMachine, state.value, event.type, action);
  return row && applyGenerationAnswer(state, row, event);
}

/** The state after `event`, or null when the attempt refuses it. */
export function stepGenerationAttempt(state: GenerationAttemptState, event: GenerationAttemptEvent): GenerationAttemptState | null {
  const answer = askGenerationAttempt(state, event);
  return 'next' in answer ? applyGenerationAnswer(state, answer, event) : null;
}

/** Whether a status read reports the attempt as started: a completed attempt no longer is. */
export function isAttemptStarted(state: GenerationAttemptState): boolean {
  return state.value === 'inProgress';
}
