// Canonical JSON: keys sorted, no whitespace, undefined dropped. Two worlds in the same state print
// the same bytes, whatever order their maps were filled in, so their hashes compare.
import { createHash } from 'node:crypto';
import { isMap } from 'immutable';

/** Serialises a value with object keys in sorted order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',') + ']';
  // A persistent map (the KV key maps, src/areas/cluster/keymap.ts) prints as the object it stands for.
  if (isMap(value)) {
    const keys = [...value.keys()].map(String).filter((k) => value.get(k) !== undefined).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(value.get(k))).join(',') + '}';
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k])).join(',') + '}';
}

/** sha256 (hex) of the canonical JSON of a value: the world's state hash. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
