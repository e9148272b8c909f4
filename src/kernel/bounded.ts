// A bounded memo: the caches of pure functions (keys signed, tokens checked) keep at most so many
// entries, forgetting the oldest first; a forgotten entry is computed again, with the same value.

/** Sets `key` in `map`, first dropping the oldest entry when the map holds `bound` already. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  if (map.size >= bound) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
