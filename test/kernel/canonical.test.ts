// canonicalJson prints what JSON.stringify prints for the same value with every object's keys
// sorted (issue #15 gave it its own string quoting and joined members; the bytes must not move,
// every history's links and closing hash are made of them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson, hashOf } from '../../src/kernel/canonical.js';
import { SortedMap } from '../../src/kernel/sorted-map.js';

/**
 * The definition, in its plainest form (an object's members cannot be handed to JSON.stringify in
 * sorted order: it lists integer-like keys first): every string and number as JSON.stringify prints
 * it, members sorted by key as text, undefined members dropped, undefined items null.
 */
function reference(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : reference(x))).join(',') + ']';
  const entries = v instanceof SortedMap ? [...(v as SortedMap<unknown>)] : Object.entries(v);
  const members = entries.filter(([, x]) => x !== undefined).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return '{' + members.map(([k, x]) => JSON.stringify(k) + ':' + reference(x)).join(',') + '}';
}

// Every UTF-16 code unit, lone surrogates included, and the characters JSON.stringify escapes.
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00', 'a') }));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), text, tie('obj'), tie('arr'), tie('map')),
  obj: fc.dictionary(text, tie('v'), { maxKeys: 5 }),
  arr: fc.array(fc.oneof(tie('v'), fc.constant(undefined)), { maxLength: 4 }),
  map: fc.dictionary(text, tie('v'), { maxKeys: 5 }).map((o) => SortedMap.of(Object.entries(o))),
})).v;

describe('canonical JSON', () => {
  it('prints what JSON.stringify prints with keys sorted, for any value and any string', () => {
    fc.assert(fc.property(fc.oneof(value, fc.dictionary(text, fc.integer(), { minKeys: 10, maxKeys: 40 })), (v) => {
      expect(canonicalJson(v)).toBe(reference(v));
    }), { numRuns: 2000 });
  });

  it('drops undefined members, prints undefined items and non-finite numbers as null', () => {
    expect(canonicalJson({ b: undefined, a: [undefined, Infinity, NaN, -0] })).toBe('{"a":[null,null,null,0]}');
    expect(canonicalJson('\ud83d\ude00 \ud83d "q" \\')).toBe(JSON.stringify('\ud83d\ude00 \ud83d "q" \\'));
  });

  it('hashes the very bytes it prints, fed to the hash in chunks (a chunk never cuts a character)', () => {
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    fc.assert(fc.property(value, (v) => {
      expect(hashOf(v)).toBe(sha(canonicalJson(v)));
    }), { numRuns: 500 });
    // Larger than a chunk, with surrogate pairs and escapes everywhere, and a map inside.
    const big = { a: Array.from({ length: 40_000 }, (_, i) => ({ ['k\ud83d\ude00' + i]: '\ud83d\ude00 "x"\n' + i })), m: SortedMap.of(Array.from({ length: 3000 }, (_, i) => [`key ${i}`, { v: '\u00e9'.repeat(i % 7) }] as const)) };
    expect(canonicalJson(big).length).toBeGreaterThan(4 * 65536);
    expect(hashOf(big)).toBe(sha(canonicalJson(big)));
  });

  it('prints a map the same the first time (into the sink), the second (its text then kept) and after (the kept text)', () => {
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    fc.assert(fc.property(fc.dictionary(text, value, { minKeys: 1, maxKeys: 6 }), fc.boolean(), (o, hashFirst) => {
      const map = SortedMap.of(Object.entries(o));
      const expected = reference(map);
      // Held twice in one value, as DR secondaries hold their primary's maps: the second is printed from the first's kept text.
      const twice = { a: map, b: map };
      const prints = hashFirst ? [sha(`{"m":${expected}}`) === hashOf({ m: map }), canonicalJson(map) === expected] : [canonicalJson(map) === expected, sha(`{"m":${expected}}`) === hashOf({ m: map })];
      expect(prints).toEqual([true, true]);
      expect(canonicalJson(map)).toBe(expected);
      expect(canonicalJson(twice)).toBe(`{"a":${expected},"b":${expected}}`);
      expect(hashOf({ m: SortedMap.of(Object.entries(o)), n: map })).toBe(sha(`{"m":${expected},"n":${expected}}`));
    }), { numRuns: 300 });
  });
});
