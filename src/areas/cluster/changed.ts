// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed (issue #15).
//
// Every reducer makes its new cluster table in one of two places, which remember what they set: a
// direct form through `withCluster` (the hot events: a KV write, a WAL delivered), and a draft form
// when its edited record is folded back (draft.ts, `changedClustersAre`). So the answer is known
// without comparing every cluster. Only the table made last is remembered (the bus reads each event
// just after it is applied), and only for exactly those two tables; for any other pair (a test, a
// fork's first look) the clusters are compared one by one.
import type { Clusters, ClusterState, SimState } from './state.js';

const NONE: readonly string[] = Object.freeze([]);
/** The table made last: from which table, with which clusters set. */
let made: { base: Clusters; next: Clusters; names: readonly string[] } | null = null;
/** The last answer of a comparison cluster by cluster. */
let last: { before: Clusters; after: Clusters; names: readonly string[] } | null = null;

/** `clusters` with one cluster set (changed or added): a new table, the others shared; it remembers which. */
export function withCluster(clusters: Clusters, name: string, next: ClusterState): Clusters {
  const table = clusters.set(name, next);
  made = { base: clusters, next: table, names: [name] };
  return table;
}

/** Records that `next` is `base` with the clusters `names` set (a draft folded back: draft.ts). */
export function changedClustersAre(base: Clusters, next: Clusters, names: readonly string[]): void {
  made = { base, next, names: Object.freeze([...names]) };
}

/** The names of the clusters the event changed or added, in the table's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  return changedBetween(before.clusters, after.clusters);
}

/** The names of the clusters that differ from one table to the next (changed or added), in the table's order. */
export function changedBetween(before: Clusters, after: Clusters): readonly string[] {
  if (before === after) return NONE;
  if (made && made.base === before && made.next === after) return made.names;
  if (last && last.before === before && last.after === after) return last.names;
  const names: string[] = [];
  for (const name of after.names) if (before.get(name) !== after.get(name)) names.push(name);
  last = { before, after, names };
  return names;
}
