import { describe, expect, it } from 'vitest';
import {
  initialGenerationAttempt,
  isAttemptStarted,
  refusalOf,
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
  ...over,
});

/** Applies events that must all be accepted. */
function run(state: GenerationAttemptState, ...events: GenerationAttemptEvent[]): GenerationAttemptState {
  return events.reduce((s, e) => {
    const next = stepGenerationAttempt(s, e);
    if (!next) throw new Error(`refused ${e.type}: ${refusalOf(s, e)}`);
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
    expect(refusalOf(none, { type: 'cancel' })).toBeNull();
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

describe('generation attempt refusals and their Vault error texts', () => {
  /** Asserts the event is refused by the machine and explained by refusalOf with `text`. */
  function expectRefused(state: GenerationAttemptState, event: GenerationAttemptEvent, text: string) {
    expect(stepGenerationAttempt(state, event)).toBeNull();
    expect(refusalOf(state, event)).toBe(text);
  }

  it('start while an attempt is in progress: root generation already in progress', () => {
    expectRefused(inProgress(), start({ nonce: 'other' }), 'root generation already in progress');
  });

  it('start of another strategy while an attempt is in progress is refused the same way', () => {
    expectRefused(inProgress(), start({ strategy: 'root' }), 'root generation already in progress');
  });

  it('update with no attempt: no root generation in progress', () => {
    expectRefused(initialGenerationAttempt(3), update('s1'), 'no root generation in progress');
  });

  it('update after the attempt completed: no root generation in progress', () => {
    const done = run(inProgress(), update('s1'), update('s2'), update('s3', { encodedToken: 'ENC' }));
    expectRefused(done, update('s4'), 'no root generation in progress');
  });

  it('update with a wrong nonce: incorrect nonce supplied, naming the right nonce', () => {
    expectRefused(
      inProgress(),
      update('s1', { nonce: 'wrong' }),
      `incorrect nonce supplied; nonce for this root generation operation is "${NONCE}"`,
    );
  });

  it('update of another strategy: incorrect strategy supplied', () => {
    expectRefused(
      inProgress(),
      update('s1', { strategy: 'root' }),
      'incorrect strategy supplied; a generate root operation of another type is already in progress',
    );
  });

  it('update repeating a share: given key has already been provided', () => {
    expectRefused(
      run(inProgress(), update('s1')),
      update('s1'),
      'given key has already been provided during this generation operation',
    );
  });

  it('a wrong nonce is reported before a repeated share, as Vault checks in that order', () => {
    expect(refusalOf(run(inProgress(), update('s1')), update('s1', { nonce: 'wrong' }))).toMatch(/^incorrect nonce/);
  });

  it('refusalOf is null exactly when the machine accepts the event', () => {
    const states = [initialGenerationAttempt(3), inProgress(), run(inProgress(), update('s1'))];
    const events: GenerationAttemptEvent[] = [
      start(),
      update('s1'),
      update('s2'),
      update('s2', { nonce: 'x' }),
      update('s2', { strategy: 'root' }),
      { type: 'cancel' },
    ];
    for (const s of states) {
      for (const e of events) expect(refusalOf(s, e) === null).toBe(stepGenerationAttempt(s, e) !== null);
    }
  });
});
