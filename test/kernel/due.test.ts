// The due-time queue (src/kernel/due.ts): the earliest due first, ties in the order scheduled,
// cancelled entries skipped when they come to the top.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DueQueue } from '../../src/kernel/due.js';

describe('the due-time queue', () => {
  it('gives entries by due time, ties in the order scheduled', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), (dues) => {
        const q = new DueQueue<number>();
        dues.forEach((d, i) => q.push(d, i));
        const out: number[] = [];
        for (let e = q.pop(); e; e = q.pop()) out.push(e.value);
        const expected = dues.map((d, i) => ({ d, i })).sort((a, b) => a.d - b.d || a.i - b.i).map((x) => x.i);
        expect(out).toEqual(expected);
      }),
    );
  });

  it('skips entries no longer live when peeking', () => {
    const q = new DueQueue<string>();
    q.push(5, 'a');
    q.push(3, 'cancelled');
    q.push(7, 'b');
    expect(q.peek((v) => v !== 'cancelled')?.value).toBe('a');
    expect(q.size).toBe(2);
  });
});

describe('DueQueue ranks (timed work)', () => {
  it('at one due time, ranked entries come out first in rank order, whatever the scheduling order; then the rest in order scheduled', () => {
    const q = new DueQueue<string>();
    q.push(10, 'message-a');
    q.push(10, 'sync-b', ['sync', 'b']);
    q.push(5, 'early');
    q.push(10, 'merkle-z', ['merkle', 'z']);
    q.push(10, 'message-b');
    q.push(10, 'sync-a-long', ['sync', 'a', 'x']);
    q.push(10, 'sync-a', ['sync', 'a']);
    const out: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) out.push(e.value);
    expect(out).toEqual(['early', 'merkle-z', 'sync-a', 'sync-a-long', 'sync-b', 'message-a', 'message-b']);
  });
});
