// Performance replication's paths filters: which of a primary's mounts and namespaces reach one
// performance secondary. A filter belongs to the primary's record of a secondary id (the token it
// issued), so a new token for that id starts without one (area B rule 1). The filter is read in
// three places, all through this module: the delivery scope (scope.ts), the dynamic filter the
// endpoints report, and the `filters-respected` monitor (`excludedFor`).
//
// Paths are compared as prefixes with a trailing slash, so one rule serves mounts and namespaces:
// a listed "team-a/" covers the namespace team-a, its sub-namespaces and every mount in them; a
// listed "team-a/apps/" covers that mount only.
import { clustersChanged, editCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import { asFolder } from '../core/paths.js';
import type { BaseEvent, Touch } from '../../kernel/engine.js';
import { own } from '../../kernel/own.js';
import type { Clusters, ClusterState, SimState, Storage } from '../core/state.js';
import type { DynamicFilter, PathsFilter } from './state.js';
import { writeWal } from '../core/touched.js';
import { linkTouched } from './touched.js';
import type { FilterEvent, PathsFilterDeleted, PathsFilterSet } from './events.js';


/** A filter path as mounts and namespaces are keyed ("secret" → "secret/"). */
export const normaliseFilterPath = asFolder;

/** Whether the filter lets one of the primary's replicated mounts through (no filter: all of them). */
export function filterIncludesMount(filter: PathsFilter | null, mountPath: string): boolean {
  if (!filter) return true;
  const listed = filter.paths.some((p) => mountPath.startsWith(p));
  return filter.mode === 'allow' ? listed : !listed;
}

/**
 * Whether the filter lets one of the primary's namespaces through. In allow mode a namespace above a
 * listed path comes too, since the listed mount or namespace cannot exist without it; its other
 * mounts stay filtered.
 */
export function filterIncludesNamespace(filter: PathsFilter | null, namespace: string): boolean {
  if (!filter) return true;
  if (filter.mode === 'deny') return !filter.paths.some((p) => namespace.startsWith(p));
  return filter.paths.some((p) => namespace.startsWith(p) || p.startsWith(namespace));
}

/** The filter a performance primary applies to secondary `secondaryId`, or null. */
export function filterFor(primary: ClusterState, secondaryId: string): PathsFilter | null {
  return own(primary.replication.performance.issued, secondaryId)?.filter ?? null;
}

/**
 * Whether the mount at `mountPath` (full path, "secret/" or "team-a/apps/") of performance primary
 * `primaryName` must never be held by the secondary it knows as `secondaryId`: a local mount of the
 * primary, or one the secondary's paths filter excludes. The predicate of `filters-respected`.
 */
export function excludedFor(state: SimState, primaryName: string, secondaryId: string, mountPath: string): boolean {
  const primary = state.clusters.get(primaryName);
  if (!primary) return false;
  if (primary.storage.mounts[mountPath]?.local) return true;
  return !filterIncludesMount(filterFor(primary, secondaryId), mountPath);
}

/** Like `excludedFor`, for a namespace path ("team-a/"). */
export function namespaceExcludedFor(state: SimState, primaryName: string, secondaryId: string, namespacePath: string): boolean {
  const primary = state.clusters.get(primaryName);
  if (!primary) return false;
  return !filterIncludesNamespace(filterFor(primary, secondaryId), namespacePath);
}

/** The primary's replicated mounts and namespaces that the filter keeps from secondary `secondaryId`, sorted. */
export function dynamicFilterOf(primary: ClusterState, secondaryId: string): DynamicFilter {
  const filter = filterFor(primary, secondaryId);
  if (!filter) return { mounts: [], namespaces: [] };
  return {
    mounts: Object.values(primary.storage.mounts)
      .filter((m) => !m.local && !filterIncludesMount(filter, m.path))
      .map((m) => m.path)
      .sort(),
    namespaces: Object.keys(primary.storage.namespaces)
      .filter((ns) => !filterIncludesNamespace(filter, ns))
      .sort(),
  };
}

/**
 * A secondary's storage without what its primary now excludes for it: replicated mounts the filter
 * (or the primary's local mounts) keeps out, and excluded namespaces with the replicated mounts in
 * them. Its own local mounts and its tokens stay. The same object when nothing is excluded.
 */
function withoutExcluded(storage: Storage, primary: ClusterState, secondaryId: string): Storage {
  const filter = filterFor(primary, secondaryId);
  const namespaces: Storage['namespaces'] = {};
  for (const [path, ns] of Object.entries(storage.namespaces)) if (filterIncludesNamespace(filter, path)) namespaces[path] = ns;
  const mounts: Storage['mounts'] = {};
  const kv: Storage['kv'] = {};
  for (const [path, m] of Object.entries(storage.mounts)) {
    const excluded = !m.local && (primary.storage.mounts[path]?.local === true || !filterIncludesMount(filter, path) || (m.namespace !== '' && !(m.namespace in namespaces)));
    if (excluded) continue;
    mounts[path] = m;
    if (storage.kv[path]) kv[path] = storage.kv[path];
  }
  const unchanged = Object.keys(mounts).length === Object.keys(storage.mounts).length && Object.keys(namespaces).length === Object.keys(storage.namespaces).length;
  return unchanged ? storage : { ...storage, namespaces, mounts, kv };
}

/**
 * Applies the filter of its primary to a performance secondary at once (an edit of a draft of the
 * secondary; its primary read from `clusters`): data now excluded is removed (so
 * `filters-respected` holds at every step, whatever the link), and its dynamic filter is what the
 * primary now filters. What is now included arrives later, by streaming. The WAL a removal writes is
 * reported in `touched`.
 */
export function enforceFilter(s: ClusterState, clusters: Clusters, at: number, touched: Touch[]): void {
  const r = s.replication.performance;
  if (r.role !== 'secondary.following' || r.primary === null) return;
  const primary = r.primary === s.name ? s : clusters.get(r.primary);
  if (!primary) return;
  const pruned = withoutExcluded(s.storage, primary, r.secondaryId);
  if (pruned !== s.storage) {
    s.storage = pruned;
    writeWal(s, at, touched);
  }
  r.dynamicFilter = dynamicFilterOf(primary, r.secondaryId);
}

/** Every cluster following this performance primary under secondary id `id`, by name. */
function followersUnder(clusters: Clusters, primary: string, id: string): string[] {
  return [...clusters.names].sort().filter((n) => {
    const r = clusters.named(n).replication.performance;
    return r.role === 'secondary.following' && r.primary === primary && r.secondaryId === id;
  });
}

/** The clusters with the filter of `primary` applied to each of `followers` (in that order). */
function enforcedOn(clusters: Clusters, followers: readonly string[], at: number, touched: Touch[]): Clusters {
  let next = clusters;
  for (const n of followers) next = editCluster(next, n, (c) => enforceFilter(c, next, at, touched));
  return next;
}

/**
 * A cluster became a performance primary again (promoted, or a DR copy taking the role up): the
 * secondaries that follow it get the filters of the list it holds now, at once. That list may not
 * be the one they were filtered by before (it came with the role).
 */
export function enforceFiltersOf(clusters: Clusters, primary: string, at: number, touched: Touch[]): Clusters {
  const followers = [...clusters.names].sort().filter((n) => {
    const r = clusters.named(n).replication.performance;
    return n !== primary && r.role === 'secondary.following' && r.primary === primary;
  });
  return enforcedOn(clusters, followers, at, touched);
}

/**
 * The primary's filter for secondary id `id` set (or removed: null), on its draft. The filter is
 * replicated configuration kept with the token it issued: it writes a WAL, which also makes the
 * streaming process send each secondary what the new filter now includes, and changes what its
 * links depend on (the tokens it issued).
 */
function setFilter(p: ClusterState, id: string, filter: PathsFilter | null, at: number, touched: Touch[]): void {
  p.replication.performance.issued[id].filter = filter;
  touched.push(linkTouched('link-changed', 'performance', p.name));
  writeWal(p, at, touched);
}

export const filterReducers = {
  'replication-paths-filter-set': (s, e: PathsFilterSet) => {
    const touched: Touch[] = [];
    const clusters = editCluster(s.clusters, e.cluster, (p) => setFilter(p, e.id, { mode: e.mode, paths: e.paths }, e.at, touched));
    return clustersChanged(s, enforcedOn(clusters, followersUnder(clusters, e.cluster, e.id), e.at, touched), touched);
  },
  'replication-paths-filter-deleted': (s, e: PathsFilterDeleted) => {
    const touched: Touch[] = [];
    return clustersChanged(s, editCluster(s.clusters, e.cluster, (p) => setFilter(p, e.id, null, e.at, touched)), touched);
  },
} satisfies SimReducers;
