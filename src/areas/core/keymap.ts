// A mount's key map: key → KV record, as a persistent map (immutable.js `OrderedMap`, a HAMT with an
// insertion-order index). A write shares all but O(log n) of the previous map, where a plain object
// had to be copied whole (`{...keys, [key]: rec}`, O(keys) per write: nearly all of a write's time at
// 25k keys). It is a frozen value: immer does not draft into it (it is not a plain object), so a
// reducer replaces it whole.
//
// Readers go through these functions and do not care about the representation. Names come out in the
// order a plain object would list them (array-index keys ascending, then insertion order), so every
// output built from them is what it was when the map was an object; canonical JSON sorts anyway
// (src/kernel/canonical.ts serialises a key map as a sorted object).
import { OrderedMap } from 'immutable';
import type { KeyMap, KvRecord } from './state.js';

export type { KeyMap };

export const emptyKeyMap: KeyMap = OrderedMap<string, KvRecord>();

/** A key map holding these records (tests and fixtures). */
export function keyMapOf(records: Record<string, KvRecord>): KeyMap {
  return OrderedMap(Object.entries(records));
}

/** The key's record, if the map holds it. Safe for any key string (no prototype lookup). */
export function recordAt(keys: KeyMap | undefined, key: string): KvRecord | undefined {
  return keys?.get(key);
}

/** How many keys the map holds. */
export function keyCount(keys: KeyMap | undefined): number {
  return keys?.size ?? 0;
}

/** An array index as ECMAScript orders object keys: a canonical integer below 2^32 - 1. */
function isArrayIndex(k: string): boolean {
  if (k.length === 0 || k.length > 10 || (k.length > 1 && k[0] === '0')) return false;
  for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) < 48 || k.charCodeAt(i) > 57) return false;
  return Number(k) < 4294967295;
}

/** The key names, in plain-object order: array indexes ascending, then the rest by insertion. */
export function keyNames(keys: KeyMap | undefined): string[] {
  if (!keys) return [];
  const indexes: string[] = [];
  const rest: string[] = [];
  for (const k of keys.keys()) (isArrayIndex(k) ? indexes : rest).push(k);
  if (indexes.length === 0) return rest;
  indexes.sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...rest];
}

/** The (key, record) pairs, in plain-object order. */
export function keyEntries(keys: KeyMap | undefined): [string, KvRecord][] {
  if (!keys) return [];
  return keyNames(keys).map((k) => [k, keys.get(k) as KvRecord]);
}
