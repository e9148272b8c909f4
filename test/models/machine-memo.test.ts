// The memoised steps of the machines asked per event equal xstate's own `transition` (issue #15:
// `transition` builds an inert actor per call; the steps ask it once per combination of state value
// and guard facts and remember the answer). Checked on every row of each table and on random inputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  initialGenerationAttempt,
  stepGenerationAttempt,
  transitionGenerationAttempt,
  type GenerationAttemptEvent,
  type GenerationAttemptState,
  type GenerationStrategy,
} from '../../models/generation-attempt.machine.js';
import { stepRuntime, transitionRuntime, type RuntimeEvent, type RuntimeValue } from '../../models/plugin-runtime.machine.js';

const VALUES: GenerationAttemptState['value'][] = ['none', 'inProgress', 'complete'];
const STRATEGIES: GenerationStrategy[] = ['dr-operation-token', 'root'];

function attempt(value: GenerationAttemptState['value'], shares: string[], required: number, strategy: GenerationStrategy = 'root', nonce = 'n1'): GenerationAttemptState {
  return { value, context: { ...initialGenerationAttempt(required).context, strategy, nonce, providedShares: shares, pgpFingerprint: 'fp', otpLength: 28, encodedToken: value === 'complete' ? 'ENC' : '' } };
}

function same(state: GenerationAttemptState, event: GenerationAttemptEvent): void {
  // The reference first: a memoised answer must not depend on what was asked before.
  const expected = transitionGenerationAttempt(state, event);
  expect(stepGenerationAttempt(state, event)).toEqual(expected);
}

describe('generation attempt: memoised step equals the machine', () => {
  it('on every row: each value × event type × guard fact combination', () => {
    let rows = 0;
    for (const value of VALUES) {
      same(attempt(value, ['a'], 3), { type: 'cancel' });
      same(attempt(value, [], 3), { type: 'start', strategy: 'root', nonce: 'n2', required: 2, otpLength: 28, pgpFingerprint: '' });
      rows += 2;
      for (const nonceOk of [true, false])
        for (const strategyOk of [true, false])
          for (const fresh of [true, false])
            for (const reaches of [true, false])
              for (const encoded of [true, false]) {
                const state = attempt(value, ['a', 'b'], reaches ? 3 : 4);
                same(state, { type: 'update', strategy: strategyOk ? 'root' : 'dr-operation-token', nonce: nonceOk ? 'n1' : 'other', share: fresh ? 'c' : 'a', ...(encoded ? { encodedToken: 'TOKEN' } : {}) });
                rows++;
              }
    }
    expect(rows).toBe(3 * (2 + 32));
  });

  it('on random states and events (fast-check), applied in sequences', () => {
    const share = fc.constantFrom('a', 'b', 'c', 'd');
    const event: fc.Arbitrary<GenerationAttemptEvent> = fc.oneof(
      fc.constant({ type: 'cancel' as const }),
      fc.record({ type: fc.constant('start' as const), strategy: fc.constantFrom(...STRATEGIES), nonce: fc.constantFrom('n1', 'n2'), required: fc.integer({ min: 1, max: 4 }), otpLength: fc.constantFrom(24, 28), pgpFingerprint: fc.constantFrom('', 'fp') }),
      fc.record({ type: fc.constant('update' as const), strategy: fc.constantFrom(...STRATEGIES), nonce: fc.constantFrom('n1', 'n2'), share, encodedToken: fc.option(fc.constantFrom('T1', 'T2'), { nil: undefined }) }, { requiredKeys: ['type', 'strategy', 'nonce', 'share'] }),
    );
    const state = fc.record({
      value: fc.constantFrom(...VALUES),
      shares: fc.uniqueArray(share, { maxLength: 3 }),
      required: fc.integer({ min: 1, max: 4 }),
      strategy: fc.constantFrom(...STRATEGIES),
      nonce: fc.constantFrom('n1', 'n2'),
    });
    fc.assert(
      fc.property(state, fc.array(event, { maxLength: 8 }), (s, events) => {
        let memo: GenerationAttemptState = attempt(s.value, s.shares, s.required, s.strategy, s.nonce);
        let ref: GenerationAttemptState = memo;
        for (const e of events) {
          const m = stepGenerationAttempt(memo, e);
          const r = transitionGenerationAttempt(ref, e);
          expect(m).toEqual(r);
          if (m && r) [memo, ref] = [m, r];
        }
      }),
      { seed: 15, numRuns: 500 },
    );
  });
});

describe('plugin runtime: memoised step equals the machine', () => {
  it('on every row, and on random inputs', () => {
    const events: RuntimeEvent[] = [{ type: 'register' }, { type: 'delete', referencedBy: [] }, { type: 'delete', referencedBy: ['p'] }];
    for (const value of ['absent', 'registered'] as RuntimeValue[]) for (const e of events) expect(stepRuntime(value, e)).toBe(transitionRuntime(value, e));
    fc.assert(
      fc.property(fc.constantFrom<RuntimeValue>('absent', 'registered'), fc.oneof(fc.constant<RuntimeEvent>({ type: 'register' }), fc.array(fc.string(), { maxLength: 3 }).map((r): RuntimeEvent => ({ type: 'delete', referencedBy: r }))), (v, e) => {
        expect(stepRuntime(v, e)).toBe(transitionRuntime(v, e));
      }),
      { seed: 15, numRuns: 200 },
    );
  });
});
