// A mount's key map: key → KV record, as a persistent sorted map (src/kernel/sorted-map.ts, a B+
// tree). A write shares all but the path to its key, where a plain object had to be copied whole
// (`{...keys, [key]: rec}`, O(keys) per write: nearly all of a write's time at 25k keys). It is a
// frozen value: immer does not draft into it (it is not a plain object), so a reducer replaces it
// whole.
//
// Readers go through these functions and do not care about the representation. Names come out
// sorted as text (sorted-map.ts says how), the order a LIST answers in; canonical JSON prints the
// map in that order too (src/kernel/canonical.ts).
import { SortedMap } from '../../kernel/sorted-map.js';
import type { KeyMap, KvRecord } from './state.js';

export type { KeyMap };

export const emptyKeyMap: KeyMap = SortedMap.empty<KvRecord>();

/** A key map holding these records (tests and fixtures). */
export function keyMapOf(records: Record<string, KvRecord>): KeyMap {
  return SortedMap.of(Object.entries(records));
}

/** The key's record, if the map holds it. Safe for any key string (no prototype lookup). */
export function recordAt(keys: KeyMap | undefined, key: string): KvRecord | undefined {
  return keys?.get(key);
}

/** How many keys the map holds. */
export function keyCount(keys: KeyMap | undefined): number {
  return keys?.size ?? 0;
}

/** The key names, sorted. */
export function keyNames(keys: KeyMap | undefined): string[] {
  return keys ? [...keys.keys()] : [];
}

/** The (key, record) pairs, sorted by key. */
export function keyEntries(keys: KeyMap | undefined): [string, KvRecord][] {
  return keys ? [...keys] : [];
}

/** The (key, record) pairs whose key starts with `prefix`, sorted: a walk of those keys alone. */
export function* keysUnder(keys: KeyMap | undefined, prefix: string): Generator<[string, KvRecord]> {
  if (!keys) return;
  for (const pair of keys.entries(prefix)) {
    if (!pair[0].startsWith(prefix)) return;
    yield pair;
  }
}
