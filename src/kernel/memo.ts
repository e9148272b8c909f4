// The one memo of the simulator: answers of pure functions kept for speed, where `npm run bench`
// asked for them. Forgetting an answer never changes one: it is computed again, the same. Three
// forms, by what the answer is a function of:
// - `memoOnObject`: of a frozen object of the state (a policy, a cluster, a table of clusters) and
//   perhaps more arguments: kept while the object lives (a WeakMap), recomputed when the other
//   arguments are not the ones it was computed for (compared by identity);
// - `memoBounded`: of a primitive key (a seed, a text): the answers computed last kept, the oldest
//   forgotten first;
// - `once`: of nothing (a probe of what the API can drive).

/**
 * `fn` memoised on its first argument, an object: the last answer for it kept while it lives, for
 * the same other arguments (at most three, compared by identity; no array is made per call, since
 * the hot callers ask once per request or step).
 */
export function memoOnObject<K extends object, A extends readonly [] | readonly [unknown] | readonly [unknown, unknown] | readonly [unknown, unknown, unknown], V>(fn: (key: K, ...rest: A) => V): (key: K, ...rest: A) => V {
  const kept = new WeakMap<K, { a: unknown; b: unknown; c: unknown; value: V }>();
  const call = fn as unknown as (key: K, a: unknown, b: unknown, c: unknown) => V;
  const memo = (key: K, a?: unknown, b?: unknown, c?: unknown): V => {
    const hit = kept.get(key);
    if (hit !== undefined && hit.a === a && hit.b === b && hit.c === c) return hit.value;
    const value = call(key, a, b, c);
    kept.set(key, { a, b, c, value });
    return value;
  };
  return memo as unknown as (key: K, ...rest: A) => V;
}

/** `fn` memoised on a primitive key, the `bound` answers computed last kept. */
export function memoBounded<K extends string | number, V>(fn: (key: K) => V, bound: number): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    const hit = kept.get(key);
    if (hit !== undefined || kept.has(key)) return hit as V;
    const value = fn(key);
    remember(kept, key, value, bound);
    return value;
  };
}

/** `fn`'s answer, computed when first asked for. */
export function once<V>(fn: () => V): () => V {
  let kept: { value: V } | null = null;
  return () => (kept ??= { value: fn() }).value;
}

/** Sets `key` in `map`, first dropping the oldest entry when the map holds `bound` already. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  if (map.size >= bound) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
