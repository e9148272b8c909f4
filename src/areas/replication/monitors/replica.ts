// The monitors' own model of what a secondary may and should hold of its primary's data, written
// from the spec's rules and the facts the state records (the primary's storage, its record of the
// secondary id it issued a token to, the filter kept with that record), importing nothing from the
// replication area's scope, filters or reducers: a bug there is then a difference the monitors see,
// not one they share (test/areas/replication/monitors/independence.test.ts injects one).
//
// The rules (spec area B, "paths filters"; the spec's replication scope):
// - DR: a secondary holds everything of its primary, local mounts and tokens included.
// - Performance: a secondary holds its primary's namespaces and non-local mounts that the paths
//   filter for its secondary id lets through, its own tokens and its own local mounts, and the
//   primary's keyring. No filter: everything replicated. `allow`: only the listed paths; `deny`:
//   all but them. A path covers what lies below it ("team-a/" covers the namespace team-a and every
//   mount in it); in allow mode a namespace above a listed path comes too (the listed mount cannot
//   exist without it). A mount in a namespace that does not reach the secondary does not reach it.
import type { ClusterState, MountEntry, ReplicationKind, SimState, Storage } from '../../core/state.js';

interface Filter {
  mode: 'allow' | 'deny';
  paths: readonly string[];
}

/** The filter the primary keeps with the token it issued to this secondary id, or null (none set, or no such token). */
function filterOf(primary: ClusterState, secondaryId: string): Filter | null {
  const issued = primary.replication.performance.issued;
  if (!Object.prototype.hasOwnProperty.call(issued, secondaryId)) return null;
  return issued[secondaryId].filter ?? null;
}

/** A path lies at or below a listed one (both kept with a trailing slash). */
const below = (path: string, listed: string) => path.startsWith(listed);

function mountPasses(filter: Filter | null, path: string): boolean {
  if (!filter) return true;
  const listed = filter.paths.some((p) => below(path, p));
  return filter.mode === 'allow' ? listed : !listed;
}

function namespacePasses(filter: Filter | null, path: string): boolean {
  if (!filter) return true;
  if (filter.mode === 'deny') return !filter.paths.some((p) => below(path, p));
  return filter.paths.some((p) => below(path, p) || below(p, path));
}

function mountReaches(primary: ClusterState, filter: Filter | null, m: MountEntry): boolean {
  if (m.local || !mountPasses(filter, m.path)) return false;
  return m.namespace === '' || (m.namespace in primary.storage.namespaces && namespacePasses(filter, m.namespace));
}

/** Whether the performance primary's mount at this path must never reach the secondary it knows by this id (local, or filtered out). */
export function mountExcluded(state: SimState, primary: string, secondaryId: string, mountPath: string): boolean {
  const p = state.clusters.get(primary);
  if (!p) return false;
  if (p.storage.mounts[mountPath]?.local) return true;
  return !mountPasses(filterOf(p, secondaryId), mountPath);
}

/** Whether the performance primary's namespace must never reach the secondary it knows by this id. */
export function namespaceExcluded(state: SimState, primary: string, secondaryId: string, namespacePath: string): boolean {
  const p = state.clusters.get(primary);
  if (!p) return false;
  return !namespacePasses(filterOf(p, secondaryId), namespacePath);
}

/** The storage a caught-up secondary holds: all of its primary's (DR), or what the rules above send it (performance). */
export function expectedReplica(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState): Storage {
  if (kind === 'dr') return primary.storage;
  const filter = filterOf(primary, secondary.replication.performance.secondaryId);
  const from = primary.storage;
  const own = secondary.storage;
  const namespaces: Storage['namespaces'] = {};
  for (const path of Object.keys(from.namespaces)) if (namespacePasses(filter, path)) namespaces[path] = from.namespaces[path];
  const mounts: Storage['mounts'] = {};
  const kv: Storage['kv'] = {};
  for (const path of Object.keys(from.mounts)) {
    const m = from.mounts[path];
    if (!mountReaches(primary, filter, m)) continue;
    mounts[path] = m;
    if (from.kv[path]) kv[path] = from.kv[path];
  }
  for (const path of Object.keys(own.mounts)) {
    const m = own.mounts[path];
    if (!m.local || path in mounts) continue;
    mounts[path] = m;
    if (own.kv[path]) kv[path] = own.kv[path];
  }
  return { namespaces, mounts, kv, tokens: own.tokens, keyring: from.keyring };
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
