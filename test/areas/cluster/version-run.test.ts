// A KV-v2 key's versions as a persistent run (src/areas/core/version-run.ts): a frozen array while
// short, a persistent list when long. Checked against a plain model (number → value) over random
// sequences of writes, rewrites of a held version and drops of the oldest, across the change of form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VersionRun } from '../../../src/areas/core/version-run.js';

type Op = { kind: 'add' } | { kind: 'rewrite'; back: number } | { kind: 'drop'; count: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Op>({ kind: 'add' }) },
  { weight: 1, arbitrary: fc.nat(80).map((back): Op => ({ kind: 'rewrite', back })) },
  { weight: 1, arbitrary: fc.nat(60).map((count): Op => ({ kind: 'drop', count })) },
);

describe('VersionRun', () => {
  it('holds exactly what a plain record would, through adds, rewrites and drops (short and long runs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 300 }), (start, ops) => {
        let run = VersionRun.empty<string>();
        const model = new Map<number, string>();
        let next = start;
        for (const [i, o] of ops.entries()) {
          const before = run;
          const beforeJson = JSON.stringify(before);
          if (o.kind === 'add') {
            run = run.set(next, `v${next}@${i}`);
            model.set(next, `v${next}@${i}`);
            next++;
          } else if (o.kind === 'rewrite' && model.size > 0) {
            const n = run.last - (o.back % model.size);
            run = run.set(String(n), `r${n}@${i}`);
            model.set(n, `r${n}@${i}`);
          } else if (o.kind === 'drop' && model.size > 0) {
            const through = run.first + (o.count % (model.size + 1)) - 1;
            run = run.dropThrough(through);
            for (const n of [...model.keys()]) if (n <= through) model.delete(n);
          }
          // Persistent: the run before is untouched.
          expect(JSON.stringify(before)).toBe(beforeJson);
          expect(Object.isFrozen(run)).toBe(true);
          const keys = [...model.keys()].sort((a, b) => a - b);
          expect(run.size).toBe(keys.length);
          expect(run.keys()).toEqual(keys.map(String));
          expect(run.entries()).toEqual(keys.map((n) => [n, model.get(n)]));
          expect(run.toJSON()).toEqual(Object.fromEntries(keys.map((n) => [String(n), model.get(n)])));
          if (keys.length) expect([run.first, run.last]).toEqual([keys[0], keys[keys.length - 1]]);
          for (const n of [run.first - 1, run.last + 1, 0, -1, 1.5]) if (!model.has(n)) expect(run.get(n)).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps its versions across the change of form, long and short again', () => {
    let run = VersionRun.empty<number>();
    for (let n = 1; n <= 100; n++) run = run.set(n, n * 10);
    expect([run.size, run.get(1), run.get(100), run.get(50)]).toEqual([100, 10, 1000, 500]);
    run = run.dropThrough(90);
    expect([run.first, run.size, run.get(91), run.get(100)]).toEqual([91, 10, 910, 1000]);
    for (let n = 101; n <= 150; n++) run = run.set(n, n * 10);
    expect(run.entries().map(([n]) => n)).toEqual(Array.from({ length: 60 }, (_, i) => 91 + i));
  });

  it('adds the newest and drops the oldest in one step as it would in two, short and long', () => {
    for (const size of [5, 31, 32, 33, 40]) {
      let run = VersionRun.empty<number>();
      for (let n = 1; n <= size; n++) run = run.set(n, n);
      for (const through of [0, 1, 3, size - 1, size, size + 1]) {
        const one = run.set(size + 1, -1, through);
        const two = run.set(size + 1, -1).dropThrough(through);
        expect([one.first, one.entries()]).toEqual([two.first, two.entries()]);
      }
      // A held version rewritten while the oldest go.
      expect(run.set(size, -2, 2).entries()).toEqual(run.set(size, -2).dropThrough(2).entries());
    }
  });

  it('refuses a version that is neither held nor the next after the newest', () => {
    const run = VersionRun.empty<string>().set(3, 'a').set(4, 'b');
    expect(() => run.set(6, 'x')).toThrow(/versions 3–4/);
    expect(() => run.set(2, 'x')).toThrow(/added in order/);
    expect(run.set(5, 'c').keys()).toEqual(['3', '4', '5']);
  });

  it('prints as the record it stands for, in canonical JSON too', async () => {
    const { canonicalJson } = await import('../../../src/kernel/canonical.js');
    let run = VersionRun.empty<{ v: number }>();
    for (let n = 1; n <= 12; n++) run = run.set(n, { v: n });
    run = run.dropThrough(2);
    expect(canonicalJson({ versions: run })).toBe(canonicalJson({ versions: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i + 3), { v: i + 3 }])) }));
  });
});
