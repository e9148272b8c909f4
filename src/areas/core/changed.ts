// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed, not with the world's clusters. The table knows
// which clusters were set since the table it was made from (cluster-table.ts `changedSince`).
import type { Clusters, SimState } from './state.js';

/** The names of the clusters the event changed or added, in the table's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  return after.clusters.changedSince(before.clusters);
}

/** The names of the clusters that differ from one table to the next (changed or added), in the table's order. */
export function changedBetween(before: Clusters, after: Clusters): readonly string[] {
  return after.changedSince(before);
}
