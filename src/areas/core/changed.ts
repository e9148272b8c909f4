// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed, plus one comparison per cluster of the world.
import type { Clusters, ClusterState, SimState } from './state.js';

const NONE: readonly string[] = Object.freeze([]);

/** `clusters` with one cluster set (changed or added): a new table, the others shared. */
export function withCluster(clusters: Clusters, name: string, next: ClusterState): Clusters {
  return clusters.set(name, next);
}

/** The names of the clusters the event changed or added, in the table's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  return changedBetween(before.clusters, after.clusters);
}

/** The names of the clusters that differ from one table to the next (changed or added), in the table's order. */
export function changedBetween(before: Clusters, after: Clusters): readonly string[] {
  if (before === after) return NONE;
  const names: string[] = [];
  for (const name of after.names) if (before.get(name) !== after.get(name)) names.push(name);
  return names;
}
