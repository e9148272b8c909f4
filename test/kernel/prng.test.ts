import { describe, expect, it } from 'vitest';
import prand from 'pure-rand';
import { SeededRng, seedState } from '../../src/kernel/prng.js';

function draws(rng: SeededRng): string[] {
  return [rng.uuid(), rng.base62(24), String(rng.int(1, 6)), Buffer.from(rng.bytes(7)).toString('hex')];
}

describe('seeded PRNG', () => {
  it('draws the same values from the same seed', () => {
    expect(draws(new SeededRng(42))).toEqual(draws(new SeededRng(42)));
  });

  it('draws different values from different seeds', () => {
    expect(draws(new SeededRng(1))).not.toEqual(draws(new SeededRng(2)));
  });

  it('continues the same stream from a saved position', () => {
    const a = new SeededRng(9);
    a.uuid();
    const b = new SeededRng(0, a.save());
    expect(draws(b)).toEqual(draws(a));
  });

  it('spells a UUID as the hex of its 16 bytes, version and variant bits set', () => {
    const rng = new SeededRng(5);
    const twin = new SeededRng(0, rng.save());
    for (let i = 0; i < 200; i++) {
      const b = twin.bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = Buffer.from(b).toString('hex');
      expect(rng.uuid()).toBe(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
    }
  });

  it('makes version-4 shaped UUIDs and base62 strings of the asked length', () => {
    const rng = new SeededRng(3);
    for (let i = 0; i < 50; i++) {
      expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(rng.base62(24)).toMatch(/^[0-9A-Za-z]{24}$/);
    }
  });

  it('keeps int draws inside the inclusive range', () => {
    const rng = new SeededRng(5);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(rng.int(1, 3));
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });
});

describe('seeds beyond 32 bits', () => {
  it('give worlds of their own (pure-rand alone keeps only the low 32 bits)', () => {
    const draw = (seed: number) => Array.from({ length: 4 }, ((r) => () => r.nextUint32())(new SeededRng(seed)));
    expect(draw(2 ** 32 + 1)).not.toEqual(draw(1));
    expect(draw(2 ** 40 + 7)).not.toEqual(draw(7));
    expect(draw(Number.MAX_SAFE_INTEGER)).not.toEqual(draw(-1));
  });

  it('leave 32-bit seeds exactly as pure-rand seeds them (existing histories unchanged)', () => {
    for (const seed of [0, 1, 7, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, -5]) {
      expect(seedState(seed)).toEqual(prand.xoroshiro128plus(seed | 0).getState!());
    }
  });
});
