// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed, not with the world's clusters.
//
// A table made by setting clusters carries, as an annotation of that value, the table it was made
// from and the names it set: `withCluster` (a reducer setting one cluster) and `changedClustersAre`
// (a draft folded back, draft.ts; a cluster set in two steps, replication/interplay.ts) write it. The
// table it was made from is named by a number given to each table when first asked, so no table keeps
// the tables before it alive. (A WeakRef did the same between jobs, but V8 keeps every WeakRef's
// target alive until the job that made it ends, and a run whose steps never wait on I/O is one job:
// it kept every table of the run.) For any other pair of tables (a test, a fork's first look) the
// clusters are compared one by one.
import type { Clusters, ClusterState, SimState } from './state.js';

const NONE: readonly string[] = Object.freeze([]);

/** Each table made by setting clusters: the number of the table it was made from, and the names it set. */
const madeFrom = new WeakMap<Clusters, { base: number; names: readonly string[] }>();

/** The tables' numbers, given when first asked. */
const numbers = new WeakMap<Clusters, number>();
let nextNumber = 0;

function numberOf(table: Clusters): number {
  let n = numbers.get(table);
  if (n === undefined) numbers.set(table, (n = nextNumber++));
  return n;
}

/** One-name lists, made once per name. */
const single = new Map<string, readonly string[]>();

/** `clusters` with one cluster set (changed or added): a new table, the others shared; it records which. */
export function withCluster(clusters: Clusters, name: string, next: ClusterState): Clusters {
  const table = clusters.set(name, next);
  let names = single.get(name);
  if (!names) single.set(name, (names = Object.freeze([name])));
  madeFrom.set(table, { base: numberOf(clusters), names });
  return table;
}

/** Records that `next` is `base` with the clusters `names` set (a draft folded back, or a cluster set in two steps). */
export function changedClustersAre(base: Clusters, next: Clusters, names: readonly string[]): void {
  madeFrom.set(next, { base: numberOf(base), names: Object.freeze([...names]) });
}

/** The names of the clusters the event changed or added, in the table's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  return changedBetween(before.clusters, after.clusters);
}

/** The names of the clusters that differ from one table to the next (changed or added), in the table's order. */
export function changedBetween(before: Clusters, after: Clusters): readonly string[] {
  if (before === after) return NONE;
  const made = madeFrom.get(after);
  if (made && numbers.get(before) === made.base) return made.names;
  const names: string[] = [];
  for (const name of after.names) if (before.get(name) !== after.get(name)) names.push(name);
  return names;
}
