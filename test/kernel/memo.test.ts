import { describe, expect, it } from 'vitest';
import { memoBounded, memoOnObject, once } from '../../src/kernel/memo.js';

describe('the kernel memo', () => {
  it('memoOnObject computes once per object and other arguments, again when they differ', () => {
    const calls: string[] = [];
    const f = memoOnObject((o: { n: number }, tag: string) => {
      calls.push(`${o.n}${tag}`);
      return { sum: o.n, tag };
    });
    const a = { n: 1 };
    const first = f(a, 'x');
    expect(f(a, 'x')).toBe(first);
    expect(f(a, 'y')).toEqual({ sum: 1, tag: 'y' });
    expect(f({ n: 1 }, 'y')).not.toBe(first);
    expect(calls).toEqual(['1x', '1y', '1y']);
  });

  it('memoBounded keeps the most recent answers and computes a forgotten one again, the same', () => {
    const calls: number[] = [];
    const f = memoBounded((k: number) => {
      calls.push(k);
      return `v${k}`;
    }, 2);
    expect([f(1), f(2), f(1)]).toEqual(['v1', 'v2', 'v1']);
    expect(f(3)).toBe('v3'); // 1 is the oldest entry: forgotten
    expect(f(1)).toBe('v1');
    expect(calls).toEqual([1, 2, 3, 1]);
  });

  it('an answer that throws is not kept', () => {
    let n = 0;
    const f = memoBounded((k: string) => {
      n++;
      if (k === 'bad') throw new Error('no');
      return k;
    }, 4);
    expect(() => f('bad')).toThrow('no');
    expect(() => f('bad')).toThrow('no');
    expect(n).toBe(2);
  });

  it('once computes on the first call only', () => {
    let n = 0;
    const f = once(() => ++n);
    expect([f(), f(), f()]).toEqual([1, 1, 1]);
  });
});
