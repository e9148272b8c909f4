// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The bus's sources (replication's
// messages, merkle's reindex, sync's jobs) and the WAL snapshots' upkeep look only at these, so their
// cost per event grows with what the event changed (issue #15).
//
// Finding them costs one identity comparison per cluster, unless the new `clusters` record was made by
// `withCluster` (the direct reducers of the hot events: a KV write, a WAL delivered): it remembers the
// record it was made from and the one name it set, so the answer is that name. Only the record made
// last is remembered (the bus reads each event just after it is applied), and only when the states
// asked about are exactly those two records; anything else is compared cluster by cluster.
import type { ClusterState, SimState } from './state.js';

type Clusters = SimState['clusters'];

const NONE: readonly string[] = Object.freeze([]);
/** The record `withCluster` made last: from which record, with which cluster set. */
let made: { base: Clusters; next: Clusters; name: readonly string[] } | null = null;
/** The last answer of a comparison cluster by cluster. */
let last: { before: Clusters; after: Clusters; names: readonly string[] } | null = null;

/** `clusters` with one cluster set (changed or added): a new frozen record, the others shared. */
export function withCluster(clusters: Clusters, name: string, next: ClusterState): Clusters {
  const record = Object.freeze({ ...clusters, [name]: next });
  made = { base: clusters, next: record, name: [name] };
  return record;
}

/** Which cluster `withCluster` set to make `after` from `before`, if it made it (else undefined). */
export function madeFrom(before: Clusters, after: Clusters): readonly string[] | undefined {
  return made && made.base === before && made.next === after ? made.name : undefined;
}

/** The names of the clusters the event changed or added, in the record's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  if (before.clusters === after.clusters) return NONE;
  const one = madeFrom(before.clusters, after.clusters);
  if (one) return one;
  if (last && last.before === before.clusters && last.after === after.clusters) return last.names;
  const names: string[] = [];
  for (const name in after.clusters) if (before.clusters[name] !== after.clusters[name]) names.push(name);
  last = { before: before.clusters, after: after.clusters, names };
  return names;
}

/** The record `after` was made from by `withCluster`, and the cluster it set, if it was the last one made. */
export function madeFromRecord(after: Clusters): { record: Clusters; name: string } | undefined {
  return made && made.next === after ? { record: made.base, name: made.name[0] } : undefined;
}
