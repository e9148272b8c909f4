import { describe, expect, it } from 'vitest';
import { oneGenerationAttempt } from '../../../../src/areas/operation-token/monitors/one-generation-attempt.js';
import { DR, Watched, folded, response, world } from '../../../check/helpers.js';

const ATTEMPT = `${DR}/secondary/generate-operation-token/attempt`;

/** west a DR secondary of east. */
function drPair(x: Watched): void {
  x.drPrimary('east');
  x.drSecondary('east', 'west');
  x.advance(1000);
}

describe('invariant one-generation-attempt', () => {
  it('holds through the API: a second start is refused, a cancel lets a new one start, root and DR alike', () => {
    const x = new Watched(world(), [oneGenerationAttempt]);
    drPair(x);
    expect(x.post('west', ATTEMPT, {}, null).status).toBe(200);
    expect(x.post('west', ATTEMPT, {}, null).status).toBe(400);
    x.get('west', ATTEMPT);
    x.request('west', { method: 'DELETE', path: ATTEMPT });
    expect(x.post('west', ATTEMPT, {}, null).status).toBe(200);
    expect(x.post('south', ATTEMPT, {}, null).status).toBe(400); // south is not a DR secondary: nothing opens
    expect(x.post('east', 'sys/generate-root/attempt', {}, null).status).toBe(200);
    expect(x.post('east', 'sys/generate-root/attempt', {}, null).status).toBe(400);
    expect(x.findings).toEqual([]);
  });

  it('catches a second attempt opened while one is in progress', () => {
    const w = world();
    const m = oneGenerationAttempt();
    const start = (nonce: string) => ({ type: 'generation-started' as const, at: 0, cluster: 'east', strategy: 'root' as const, nonce, required: 3, otpLength: 28, otp: 'x'.repeat(28), pgpKey: '', pgpFingerprint: '' });
    const o = folded(w.state, [start('n1')]);
    expect(m.observe(o)).toEqual([]);
    // The machine would refuse the second start, so the state cannot be folded: the monitor reads the log.
    const found = m.observe({ before: o.state, events: [start('n2')], state: o.state });
    expect(found).toMatchObject([{ kind: 'violation', id: 'one-generation-attempt', clusters: ['east'] }]);
  });

  it('catches a start request answered with success while an attempt was in progress', () => {
    const w = world();
    const m = oneGenerationAttempt();
    w.request('east', { method: 'POST', path: 'sys/generate-root/attempt', body: {} });
    const before = w.state;
    const r = response('east', { method: 'POST', path: '/v1/sys/generate-root/attempt', body: {} }, { status: 200, body: { started: true } }, before);
    expect(m.observe({ before, events: [], state: before, responses: [r] })).toMatchObject([{ id: 'one-generation-attempt', clusters: ['east'] }]);
  });
});
