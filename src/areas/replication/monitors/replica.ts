// What a secondary may and should hold of its primary's data: the monitors' one seam to the
// replication scope. DR secondaries mirror everything. A performance secondary receives the
// primary's non-local mounts and namespaces that its paths filter lets through; the filter's
// predicates are the performance module's (`excludedFor`, `namespaceExcludedFor` in
// cluster/replication/filters.ts), and what a caught-up secondary holds is `replicatedStorage`
// (scope.ts). Nothing else in src/check reads the scope or the filters.
import { excludedFor, namespaceExcludedFor } from '../filters.js';
import { replicatedStorage } from '../scope.js';
import type { ClusterState, ReplicationKind, SimState, Storage } from '../../cluster/state.js';

/** Whether the performance primary's mount at this path must never reach the secondary it knows by this id (local, or filtered out). */
export function mountExcluded(state: SimState, primary: string, secondaryId: string, mountPath: string): boolean {
  return excludedFor(state, primary, secondaryId, mountPath);
}

/** Whether the performance primary's namespace must never reach the secondary it knows by this id. */
export function namespaceExcluded(state: SimState, primary: string, secondaryId: string, namespacePath: string): boolean {
  return namespaceExcludedFor(state, primary, secondaryId, namespacePath);
}

/** The storage a caught-up secondary holds: its primary's, as that primary sends it to this secondary. */
export function expectedReplica(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState): Storage {
  return replicatedStorage(kind, primary, secondary, secondary.replication[kind].secondaryId);
}

/**
 * Whether the secondary's mount at a path is the secondary's own local mount rather than something
 * from the primary: a local mount with another uuid than the primary's mount there (created on the
 * secondary), or with the same uuid where the two share a DR replication set (same DR `cluster_id`):
 * DR copies everything, uuids included, so a former DR primary that follows its own DR copy as a
 * performance secondary holds its own local mount under its primary's uuid.
 */
export function isOwnLocalMount(primary: ClusterState, secondary: ClusterState, path: string): boolean {
  const s = secondary.storage.mounts[path];
  const p = primary.storage.mounts[path];
  if (!s || !s.local) return false;
  if (!p || p.uuid !== s.uuid) return true;
  const drSet = secondary.replication.dr.clusterId;
  return drSet !== '' && drSet === primary.replication.dr.clusterId;
}
