// The persistent sorted map against a model of its own: a plain Map copied at every step, whose
// keys are sorted here with the comparison the service's listing uses (code units, `<`). Every
// version made along the way must still read as it did when it was made.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedMap } from '../../src/kernel/sorted-map.js';
import { keysUnder } from '../../src/areas/core/keymap.js';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// Short keys over a few characters collide often (a set replaces, a delete finds); the odd ones are names a plain object inherits.
const key = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'b', '/', '1', '0', '\u00e9', '\ud83d'), maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', 'toString', ''));
const op = fc.oneof(
  fc.record({ set: key, value: fc.integer() }),
  fc.record({ delete: key }),
);

function sortedModel(model: Map<string, number>): [string, number][] {
  return [...model].sort((a, b) => byText(a[0], b[0]));
}

describe('SortedMap', () => {
  it('reads as a plain map would, sorted as text, and every earlier version is unchanged', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      let map = SortedMap.empty<number>();
      let model = new Map<string, number>();
      const versions: [SortedMap<number>, [string, number][]][] = [[map, []]];
      for (const o of ops) {
        if ('set' in o) {
          map = map.set(o.set, o.value);
          model = new Map(model).set(o.set, o.value);
        } else {
          const before = map;
          map = map.delete(o.delete);
          if (!model.has(o.delete)) expect(map).toBe(before);
          model = new Map(model);
          model.delete(o.delete);
        }
        versions.push([map, sortedModel(model)]);
        expect(map.size).toBe(model.size);
      }
      for (const [m, expected] of versions) {
        expect([...m]).toEqual(expected);
        expect([...m.keys()]).toEqual(expected.map(([k]) => k));
        for (const [k, v] of expected) expect(m.get(k)).toBe(v);
      }
      const last = versions[versions.length - 1][1];
      expect(map.get('hasOwnProperty')).toBe(last.find(([k]) => k === 'hasOwnProperty')?.[1]);
    }), { numRuns: 300 });
  });

  it('lists the keys under a prefix, and only those, in order', () => {
    fc.assert(fc.property(fc.array(key, { maxLength: 200 }), key, (keys, prefix) => {
      const map = SortedMap.of(keys.map((k, i) => [k, i] as const));
      const expected = [...new Set(keys)].filter((k) => k.startsWith(prefix)).sort(byText);
      expect([...keysUnder(map as never, prefix)].map(([k]) => k)).toEqual(expected);
    }), { numRuns: 300 });
  });

  it('prints as the object it stands for, a key named __proto__ included', () => {
    const map = SortedMap.of([['b', 1], ['__proto__', 2], ['a', 3]]);
    expect(JSON.stringify(map)).toBe('{"__proto__":2,"a":3,"b":1}');
    expect(Object.isFrozen(map)).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
