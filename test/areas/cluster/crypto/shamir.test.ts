import { describe, expect, it } from 'vitest';
import { combineShares, parseShare, splitRootKey } from '../../../../src/areas/core/crypto/shamir.js';
import { SeededRng } from '../../../../src/kernel/prng.js';

const ROOT_KEY = '00a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f';

/** Every way to pick `k` items from `items`. */
function choose<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, i) => choose(items.slice(i + 1), k - 1).map((rest) => [item, ...rest]));
}

describe('shamir', () => {
  it('any threshold shares recombine to the root key, keeping its leading zero byte', () => {
    const shares = splitRootKey(ROOT_KEY, 5, 3, new SeededRng(7));
    expect(shares).toHaveLength(5);
    for (const subset of choose(shares, 3)) expect(combineShares(subset)).toBe(ROOT_KEY);
  });

  it('threshold - 1 shares do not recombine to the root key', () => {
    const shares = splitRootKey(ROOT_KEY, 5, 3, new SeededRng(7));
    for (const subset of choose(shares, 2)) expect(combineShares(subset)).not.toBe(ROOT_KEY);
  });

  it('the same seed gives the same shares, another seed other shares', () => {
    const a = splitRootKey(ROOT_KEY, 5, 3, new SeededRng(42));
    expect(splitRootKey(ROOT_KEY, 5, 3, new SeededRng(42))).toEqual(a);
    expect(splitRootKey(ROOT_KEY, 5, 3, new SeededRng(43))).not.toEqual(a);
  });

  it('splitting draws from the given generator only, so the stream position is reproducible', () => {
    const a = new SeededRng(9);
    const b = new SeededRng(9);
    splitRootKey(ROOT_KEY, 5, 3, a);
    splitRootKey(ROOT_KEY, 5, 3, b);
    expect(a.save()).toEqual(b.save());
  });

  it('hex and base64 forms of one share normalise equal', () => {
    const [share] = splitRootKey(ROOT_KEY, 3, 2, new SeededRng(1));
    const hex = Buffer.from(share, 'base64').toString('hex');
    expect(parseShare(share)).toBe(share);
    expect(parseShare(hex)).toBe(share);
    expect(parseShare(hex.toUpperCase())).toBe(share);
  });

  it('a share that is neither hex nor base64 is refused', () => {
    expect(parseShare('not a key!')).toBeNull();
    expect(parseShare('abc')).toBeNull();
    expect(parseShare('')).toBeNull();
  });

  it('a single share of a 1-of-1 split is the root key itself, as in Vault', () => {
    const [share] = splitRootKey(ROOT_KEY, 1, 1, new SeededRng(1));
    expect(Buffer.from(share, 'base64').toString('hex')).toBe(ROOT_KEY);
    expect(combineShares([share])).toBe(ROOT_KEY);
  });

  it('shares carry their x-coordinate in the last byte, like Vault shares', () => {
    const shares = splitRootKey(ROOT_KEY, 3, 2, new SeededRng(1));
    expect(shares.map((s) => Buffer.from(s, 'base64').at(-1))).toEqual([1, 2, 3]);
  });

  it('combining a share twice is refused rather than giving a key', () => {
    const [a] = splitRootKey(ROOT_KEY, 3, 2, new SeededRng(1));
    expect(() => combineShares([a, a])).toThrow(/duplicate part/);
  });

  it('a threshold above the share count is refused', () => {
    expect(() => splitRootKey(ROOT_KEY, 2, 3, new SeededRng(1))).toThrow(/threshold 3/);
  });
});
