// The bounded did-you-mean distance against a plain full-table restatement of optimal string
// alignment, and the bounds that keep a long name from costing anything.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedDistance, closest } from '../../src/kernel/suggest.js';

/** Optimal string alignment over the whole (n+1)x(m+1) table: the reference, for short words only. */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

describe('boundedDistance', () => {
  it('is the optimal-string-alignment distance when within the bound, and bound + 1 beyond it', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 8 }), (a, b, max) => {
        const full = osa(a, b);
        expect(boundedDistance(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts a swapped pair of letters as one edit', () => {
    expect(boundedDistance('PSOT', 'POST', 3)).toBe(1);
    expect(boundedDistance('licnese', 'license', 3)).toBe(1);
  });

  it('answers a 40,000-character word against a short one from the lengths alone', () => {
    expect(boundedDistance('x'.repeat(40_000), 'east', 13_333)).toBe(13_334);
  });
});

describe('closest', () => {
  const opts = { maxEdits: (w: string) => Math.max(1, Math.floor(w.length / 3)), compare: (w: string) => w.toLowerCase() };

  it('finds a misspelt name and leaves far ones alone', () => {
    expect(closest('tokn', ['token', 'on', 'otp'], opts)).toBe('token');
    expect(closest('on', ['otp', 'token'], opts)).toBeUndefined();
  });

  it('suggests nothing for a name longer than every candidate by more than the edits allowed, without reading it', () => {
    let folded = 0;
    const fold = (w: string) => {
      folded++;
      return w;
    };
    expect(closest('x'.repeat(40_000), ['east', 'west'], { ...opts, fold })).toBeUndefined();
    expect(folded).toBe(0);
  });

  it('still suggests for a long name within reach of a long candidate', () => {
    const candidate = 'performance-secondary-activation-token-'.repeat(3);
    expect(closest(candidate.slice(0, -2) + 'XX', ['east', candidate], opts)).toBe(candidate);
  });
});
