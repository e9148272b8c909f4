// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed.
//
// Every reducer makes its new cluster table through one of two calls, which remember what they set:
// `withCluster` (a direct form setting one cluster: a KV write, a WAL delivered, a role edited) and
// `changedClustersAre` (a draft form's edited record folded back, draft.ts; a direct form that set
// one cluster in two steps, replication/interplay.ts). So the answer is known without comparing
// every cluster. Only the table made last is remembered (the bus reads each event
// just after it is applied), and only for exactly those two tables; for any other pair (a test, a
// fork's first look) the clusters are compared one by one.
import type { Clusters, ClusterState, SimState } from './state.js';

const NONE: readonly string[] = Object.freeze([]);
/** The table made last: from which table, with which clusters set (fields, not an object per change: one is made per event). */
let madeBase: Clusters | null = null;
let madeNext: Clusters | null = null;
let madeNames: readonly string[] = NONE;
/** The last answer of a comparison cluster by cluster. */
let last: { before: Clusters; after: Clusters; names: readonly string[] } | null = null;
/** One-name lists, made once per name. */
const single = new Map<string, readonly string[]>();

/** `clusters` with one cluster set (changed or added): a new table, the others shared; it remembers which. */
export function withCluster(clusters: Clusters, name: string, next: ClusterState): Clusters {
  const table = clusters.set(name, next);
  let names = single.get(name);
  if (!names) single.set(name, (names = Object.freeze([name])));
  madeBase = clusters;
  madeNext = table;
  madeNames = names;
  return table;
}

/** Records that `next` is `base` with the clusters `names` set (a draft folded back, or a cluster set in two steps). */
export function changedClustersAre(base: Clusters, next: Clusters, names: readonly string[]): void {
  madeBase = base;
  madeNext = next;
  madeNames = Object.freeze([...names]);
}

/** The names of the clusters the event changed or added, in the table's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  return changedBetween(before.clusters, after.clusters);
}

/** The names of the clusters that differ from one table to the next (changed or added), in the table's order. */
export function changedBetween(before: Clusters, after: Clusters): readonly string[] {
  if (before === after) return NONE;
  if (madeBase === before && madeNext === after) return madeNames;
  if (last && last.before === before && last.after === after) return last.names;
  const names: string[] = [];
  for (const name of after.names) if (before.get(name) !== after.get(name)) names.push(name);
  last = { before, after, names };
  return names;
}
