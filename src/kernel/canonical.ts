// Canonical JSON: keys sorted, no whitespace, undefined dropped. Two worlds in the same state print
// the same bytes, whatever order their maps were filled in, so their hashes compare.
import { createHash } from 'node:crypto';
import { SortedMap } from './sorted-map.js';

/**
 * The text of each persistent map printed more than once. A persistent map never changes (a write
 * makes a new one), and the state shares them: DR secondaries hold their primary's storage, so
 * without it each mount's map would be printed once per cluster, and a map no write touched again
 * at every hash or merkle root (canonical JSON would be a third of a 25k-key replay). Held weakly: a
 * map no state holds any more takes its text with it.
 *
 * A map's text is kept when it is printed a second time, or at its first print into a hash of a
 * value that holds it more than once; otherwise it is printed into the sink as it goes. Most maps
 * are printed once (a run's closing hash of a map no cluster shares), and building and keeping that
 * text for a 100,000-key map at the end of the run set the run's peak (165 MB above the start,
 * against 112–120 printed into the hash).
 */
const printedMaps = new WeakMap<object, string>();
/** The maps printed once, whose text was not kept. */
const printedOnce = new WeakSet<object>();

/**
 * A string as JSON.stringify prints it. Most strings here (keys, names, paths) need no escape, and
 * quoting them in place costs a fraction of a call into JSON.stringify, which stays the one
 * authority for any string holding a character it escapes: `"`, `\`, a control character or a
 * surrogate (a lone one is escaped; a pair is not, and JSON.stringify knows which).
 */
function quoted(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return '"' + s + '"';
}

/**
 * An object's own keys, sorted as text. Most objects of a state have a handful of keys, which an
 * insertion sort orders in a fifth less time than Array.prototype.sort; a larger object takes the
 * library's sort (an insertion sort's cost grows with the square of the count).
 */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  if (keys.length > 12) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > k; j--) keys[j + 1] = keys[j];
    keys[j + 1] = k;
  }
  return keys;
}

/**
 * Where printed text goes, a piece at a time: every piece is whole tokens (a quoted string, a
 * number, punctuation, a map's text), so text cut between pieces never splits a character.
 */
interface Sink {
  put(piece: string): void;
  /** The maps the value printed holds more than once (their text is kept at their first print). */
  readonly shared?: ReadonlySet<object>;
  /** Counts the maps the value holds instead of printing them (mapsHeldTwice). */
  readonly maps?: Map<object, number>;
}

/** Serialises a value with object keys in sorted order. */
export function canonicalJson(value: unknown): string {
  // A scalar is one piece: no sink for it.
  if (value === null || typeof value !== 'object') return scalar(value);
  return joined((out) => print(value, out));
}

/** What `write` prints, joined once. */
function joined(write: (out: Sink) => void): string {
  const parts: string[] = [];
  write({ put: (p) => parts.push(p) });
  return parts.join('');
}

function scalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : (JSON.stringify(value) ?? 'null');
  }
}

/**
 * Prints a value into `out`: the one form of canonical JSON. Pieces go into one list joined once
 * (canonicalJson) or into a hash a chunk at a time (hashOf), which makes one flat string or none:
 * built by `+=`, a state's text would be a tree of millions of pieces that hashing has to flatten first.
 */
function print(value: unknown, out: Sink): void {
  if (value === null || typeof value !== 'object') {
    out.put(scalar(value));
    return;
  }
  if (Array.isArray(value)) {
    out.put('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.put(',');
      if (value[i] === undefined) out.put('null');
      else print(value[i], out);
    }
    out.put(']');
    return;
  }
  // A persistent map (the KV key maps, src/areas/core/keymap.ts) prints as the object it stands for.
  if (SortedMap.isSortedMap(value)) {
    if (out.maps) {
      out.maps.set(value, (out.maps.get(value) ?? 0) + 1);
      return;
    }
    const kept = printedMaps.get(value);
    if (kept !== undefined) out.put(kept);
    else if (printedOnce.has(value) || out.shared?.has(value)) out.put(keptMapText(value));
    else {
      printedOnce.add(value);
      printMap(value, out);
    }
    return;
  }
  // Any other value that says how it prints (a persistent table of the state) prints as JSON.stringify would print it.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    print((value as { toJSON(): unknown }).toJSON(), out);
    return;
  }
  const obj = value as Record<string, unknown>;
  const keys = sortedKeys(obj);
  let first = true;
  out.put('{');
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    const key = first ? quoted(k) + ':' : ',' + quoted(k) + ':';
    first = false;
    // A scalar member is one piece with its key (most members of a state are scalars).
    if (v === null || typeof v !== 'object') out.put(key + scalar(v));
    else {
      out.put(key);
      print(v, out);
    }
  }
  out.put('}');
}

/** A persistent map printed as the object it stands for: its members in its own order, sorted by key as text. */
function printMap(map: SortedMap<unknown>, out: Sink): void {
  // A member is one piece (its value printed whole): a map of records is mostly records, and pieces
  // of a record's size join faster than the record's own dozen pieces would.
  out.put('{');
  let first = true;
  for (const [k, v] of map) {
    if (v === undefined) continue;
    out.put((first ? '' : ',') + quoted(k) + ':' + canonicalJson(v));
    first = false;
  }
  out.put('}');
}

/**
 * The maps a value holds more than once (DR secondaries hold their primary's): the value is walked
 * as it is printed, each map counted instead of printed.
 */
function mapsHeldTwice(value: unknown): Set<object> {
  const maps = new Map<object, number>();
  print(value, { put: () => undefined, maps });
  const shared = new Set<object>();
  for (const [map, count] of maps) if (count > 1) shared.add(map);
  return shared;
}

/** A persistent map's text, printed and kept while the map lives (printedMaps). */
function keptMapText(map: SortedMap<unknown>): string {
  const text = joined((out) => printMap(map, out));
  printedMaps.set(map, text);
  return text;
}

/** Text fed to a hash once this many characters of pieces are waiting. */
const HASH_CHUNK = 1 << 16;

/** sha256 (hex) of the canonical JSON of a value: the world's state hash. */
export function hashOf(value: unknown): string {
  // A frozen value cannot change, so its hash is kept (a replay checks the closing line's hash, and
  // its caller asks again for the same state).
  const frozen = typeof value === 'object' && value !== null && Object.isFrozen(value);
  const known = frozen ? hashes.get(value) : undefined;
  if (known !== undefined) return known;
  // The text is fed to the hash as it is printed, a chunk at a time: a text printed whole would copy
  // the key maps' text once per level of the state holding them (cluster, storage, mounts), five
  // copies of 14 MB for a 100,000-key map.
  const hash = createHash('sha256');
  let waiting: string[] = [];
  let size = 0;
  print(value, {
    shared: mapsHeldTwice(value),
    put(piece) {
      waiting.push(piece);
      size += piece.length;
      if (size >= HASH_CHUNK) {
        hash.update(waiting.join(''));
        waiting = [];
        size = 0;
      }
    },
  });
  const digest = hash.update(waiting.join('')).digest('hex');
  if (frozen) hashes.set(value, digest);
  return digest;
}
const hashes = new WeakMap<object, string>();
