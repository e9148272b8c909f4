// Every object reachable from a state, with its path: the reducer tests check each is frozen.
import { ClusterTable } from '../../src/areas/core/cluster-table.js';
import { SortedMap } from '../../src/kernel/sorted-map.js';

/** Every object reachable from a value, with its path (a persistent key map's records, not the map). */
export function* objects(v: unknown, path = '$'): Generator<[string, object]> {
  if (v === null || typeof v !== 'object') return;
  // A persistent key map is frozen, its tree immutable by construction; its records must be frozen.
  if (v instanceof SortedMap) {
    for (const [k, c] of v) yield* objects(c, `${path}.${k}`);
    return;
  }
  // The clusters' table is frozen; the persistent list inside it is immutable by construction. Its clusters must be frozen.
  if (v instanceof ClusterTable) {
    yield [path, v];
    for (const c of v) yield* objects(c, `${path}.${c.name}`);
    return;
  }
  yield [path, v];
  for (const [k, c] of Object.entries(v)) yield* objects(c, `${path}.${k}`);
}
