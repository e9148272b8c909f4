import { describe, expect, it } from 'vitest';
import { generationRefusal } from '../../src/areas/operation-token/refusals.js';
import {
  initialGenerationAttempt,
  isAttemptStarted,
  askGenerationAttempt,
  NO_ROW,
  stepGenerationAttempt,
  type GenerationAttemptEvent,
  type GenerationAttemptState,
  type StartGenerationEvent,
  type UpdateGenerationEvent,
} from '../../models/generation-attempt.machine.js';

const NONCE = '2dbd10f1-8528-6246-09e7-82b25b8aba63';

const start = (over: Partial<StartGenerationEvent> = {}): StartGenerationEvent => ({
  type: 'start',
  strategy: 'dr-operation-token',
  nonce: NONCE,
  required: 3,
  otpLength: 28,
  pgpFingerprint: '',
  ...over,
});

const update = (share: string, over: Partial<UpdateGenerationEvent> = {}): UpdateGenerationEvent => ({
  type: 'update',
  strategy: 'dr-operation-token',
  share,
  nonce: NONCE,
  keyMatches: over.encodedToken !== undefined,
  ...over,
});

/** Applies events that must all be accepted. */
function run(state: GenerationAttemptState, ...events: GenerationAttemptEvent[]): GenerationAttemptState {
  return events.reduce((s, e) => {
    const next = stepGenerationAttempt(s, e);
    if (!next) throw new Error(`refused ${e.type}: ${JSON.stringify(askGenerationAttempt(s, e))}`);
    return next;
  }, state);
}

const inProgress = () => run(initialGenerationAttempt(3), start());

describe('generation attempt transitions (spec table)', () => {
  it('none --start--> in progress, carrying the nonce and the PGP fingerprint fixed for the attempt', () => {
    const next = run(initialGenerationAttempt(3), start({ pgpFingerprint: 'abc123' }));
    expect(next.value).toBe('inProgress');
    expect(next.context).toMatchObject({ strategy: 'dr-operation-token', nonce: NONCE, pgpFingerprint: 'abc123' });
    expect(next.context.providedShares).toEqual([]);
  });

  it('in progress --update (nonce matches, below threshold)--> in progress with progress raised', () => {
    const next = run(inProgress(), update('s1'), update('s2'));
    expect(next.value).toBe('inProgress');
    expect(next.context.providedShares).toEqual(['s1', 's2']);
  });

  it('in progress --update reaching the threshold--> complete, with the encoded token', () => {
    const next = run(inProgress(), update('s1'), update('s2'), update('s3', { encodedToken: 'ENC' }));
    expect(next.value).toBe('complete');
    expect(next.context.encodedToken).toBe('ENC');
    expect(next.context.providedShares).toEqual([]);
  });

  it('in progress --cancel--> none, progress cleared', () => {
    const next = run(inProgress(), update('s1'), { type: 'cancel' });
    expect(next).toEqual(initialGenerationAttempt(3));
  });

  it('a threshold of one completes on the first share', () => {
    const next = run(initialGenerationAttempt(1), start({ required: 1 }), update('s1', { encodedToken: 'ENC' }));
    expect(next.value).toBe('complete');
  });
});

describe('generation attempt behaviour around the table', () => {
  it('complete behaves like none for starting a new attempt', () => {
    const done = run(inProgress(), update('s1'), update('s2'), update('s3', { encodedToken: 'ENC' }));
    const next = run(done, start({ nonce: 'n2' }));
    expect(next.value).toBe('inProgress');
    expect(next.context).toMatchObject({ nonce: 'n2', encodedToken: '', providedShares: [] });
  });

  it('a status read reports a completed attempt as not started, as Vault forgets it', () => {
    const done = run(inProgress(), update('s1'), update('s2'), update('s3', { encodedToken: 'ENC' }));
    expect(isAttemptStarted(done)).toBe(false);
    expect(isAttemptStarted(inProgress())).toBe(true);
    expect(isAttemptStarted(initialGenerationAttempt(3))).toBe(false);
  });

  it('a threshold-reaching update without an encoded token (wrong key) clears progress but keeps the attempt', () => {
    const next = run(inProgress(), update('s1'), update('s2'), update('bad'));
    expect(next.value).toBe('inProgress');
    expect(next.context.nonce).toBe(NONCE);
    expect(next.context.providedShares).toEqual([]);
  });

  it('cancel is accepted with no attempt at all (DELETE always succeeds)', () => {
    const none = initialGenerationAttempt(3);
    expect(askGenerationAttempt(none, { type: 'cancel' })).toMatchObject({ next: 'none' });
    expect(run(none, { type: 'cancel' })).toEqual(none);
  });

  it('returns plain data that survives a JSON round trip', () => {
    const state = run(inProgress(), update('s1'));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(run(JSON.parse(JSON.stringify(state)), update('s2')).context.providedShares).toEqual(['s1', 's2']);
  });

  it('does not change the state it was given', () => {
    const state = run(inProgress(), update('s1'));
    const copy = structuredClone(state);
    run(state, update('s2'));
    expect(state).toEqual(copy);
  });
});

describe('generation attempt refusals: the guard that refused, and the registered refusal it reads as', () => {
  /** Asserts the machine refuses the event by `guard`, which the API answers with the refusal `code`. */
  function expectRefused(state: GenerationAttemptState, event: GenerationAttemptEvent, guard: string, code: string) {
    expect(stepGenerationAttempt(state, event)).toBeNull();
    const answer = askGenerationAttempt(state, event);
    expect(answer).toEqual({ refused: guard });
    if (event.type === 'cancel') throw new Error('cancel is never refused');
    expect(generationRefusal(guard, event.type, state).code).toBe(code);
  }

  it('start while an attempt is in progress (A.7): no row, attempt in progress', () => {
    expectRefused(inProgress(), start({ nonce: 'other' }), NO_ROW, 'operation-token.attemptInProgress');
  });

  it('start of another strategy while an attempt is in progress is refused the same way', () => {
    expectRefused(inProgress(), start({ strategy: 'root' }), NO_ROW, 'operation-token.attemptInProgress');
  });

  it('update with no attempt: no row, no attempt', () => {
    expectRefused(initialGenerationAttempt(3), update('s1'), NO_ROW, 'operation-token.noAttempt');
  });

  it('update after the attempt completed: no attempt', () => {
    const done = run(inProgress(), update('s1'), update('s2'), update('s3', { encodedToken: 'ENC' }));
    expectRefused(done, update('s4'), NO_ROW, 'operation-token.noAttempt');
  });

  it('update with a wrong nonce: the nonce guard, naming the right nonce', () => {
    expectRefused(inProgress(), update('s1', { nonce: 'wrong' }), 'nonceMatches', 'operation-token.wrongNonce');
    expect(generationRefusal('nonceMatches', 'update', inProgress()).params).toEqual([NONCE]);
  });

  it('update of another strategy: the strategy guard', () => {
    expectRefused(inProgress(), update('s1', { strategy: 'root' }), 'strategyMatches', 'operation-token.wrongStrategy');
  });

  it('update repeating a share: the share guard', () => {
    expectRefused(run(inProgress(), update('s1')), update('s1'), 'shareNotYetProvided', 'operation-token.shareRepeated');
  });

  it('a wrong nonce is reported before a repeated share, as Vault checks in that order', () => {
    expect(askGenerationAttempt(run(inProgress(), update('s1')), update('s1', { nonce: 'wrong' }))).toEqual({ refused: 'nonceMatches' });
  });

  it("the threshold is the machine's: below it a share is recorded, at it the key decides complete or abort", () => {
    const two = run(inProgress(), update('s1'), update('s2'));
    expect(askGenerationAttempt(inProgress(), update('s1'))).toMatchObject({ next: 'inProgress', actions: ['recordShare'] });
    expect(askGenerationAttempt(two, update('s3', { keyMatches: true }))).toMatchObject({ next: 'complete', actions: ['finishAttempt'] });
    expect(askGenerationAttempt(two, update('s3', { keyMatches: false }))).toMatchObject({ next: 'inProgress', actions: ['discardShares'] });
  });
});
