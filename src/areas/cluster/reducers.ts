// How the core events change the world state. Replication's own events have their reducers beside
// their handlers' domain code; the world composes all tables into one.
//
// The KV events are the bulk of every log, so their reducers are pure steps from a cluster to the
// next cluster (`onClusterStep`) built with literals rather than an immer draft: new frozen objects
// along the path that changed (data included, deeply frozen), every other object shared, keys in
// the record's own order (state.ts `copyCluster`). The rarer events edit their cluster with immer
// (core/reduce.ts `onCluster`).
import { own } from '../../kernel/own.js';
import type { KvConfigWritten, KvDeleted, KvMetadataWritten, KvWritten, MountDisabled, MountEnabled, ServerConfigReloaded, TimeAdvanced, WorldCreated } from '../core/events.js';
import { emptyKeyMap, recordAt } from '../core/keymap.js';
import type { ClusterState, KeyMap, KvMountConfig, KvRecord, KvVersion, Storage } from '../core/state.js';
import { advancedWal, copyCluster, deepFreeze } from '../core/state.js';
import { effectiveMaxVersions, emptyVersions, versionAt, withNewest } from '../core/versions.js';
import { onCluster, onReplicatedCluster, type SimReducer } from '../core/reduce.js';
import { walWritten } from '../core/touched.js';
import type { SimReducers } from '../sim-area.js';

const freeze = Object.freeze;

/**
 * The reducer of a write to one cluster's storage, from a pure step `(cluster, event) → next cluster,
 * or null for no change`: a change writes one WAL (`withStorage`), which it reports.
 */
function onClusterStep<E extends KvWritten | KvDeleted | KvConfigWritten | KvMetadataWritten>(step: (c: ClusterState, e: E) => ClusterState | null): SimReducer<E> {
  return (s, e) => {
    const c = s.clusters.named(e.cluster);
    const next = step(c, e);
    return next && { clusters: s.clusters.set(e.cluster, next), touched: [walWritten(c)] };
  };
}

/** The cluster with its storage replaced and its WAL advanced: what every write to storage does. */
function withStorage(c: ClusterState, storage: Storage, at: number): ClusterState {
  // A literal in the record's own key order rather than a spread of a frozen object (state.ts, copyCluster).
  const next = copyCluster(c);
  next.storage = storage;
  next.wal = advancedWal(c.wal, at);
  return freeze(next);
}

/**
 * The cluster with one mount's key map replaced, its WAL advanced (local mounts included: DR
 * secondaries get them).
 */
function withKeys(c: ClusterState, mount: string, keys: KeyMap, at: number): ClusterState {
  const s = c.storage;
  const next: Storage = { namespaces: s.namespaces, mounts: s.mounts, kv: freeze({ ...s.kv, [mount]: keys }), tokens: s.tokens, keyring: s.keyring };
  // The optional parts, in the order an edit adds them, only when the cluster has them.
  if (s.policies !== undefined) next.policies = s.policies;
  if (s.tokenRoles !== undefined) next.tokenRoles = s.tokenRoles;
  if (s.namespacePolicies !== undefined) next.namespacePolicies = s.namespacePolicies;
  return withStorage(c, freeze(next), at);
}

function kvWritten(c: ClusterState, e: KvWritten): ClusterState {
  const mount = c.storage.mounts[e.mount];
  const keys = own(c.storage.kv, e.mount) ?? emptyKeyMap;
  const prev: KvRecord | undefined = recordAt(keys, e.key);
  const version = mount.type === 'kv-v1' ? 1 : (prev?.current ?? 0) + 1;
  const held = mount.type === 'kv-v1' || !prev ? emptyVersions : prev.versions;
  const added: KvVersion = freeze({ data: deepFreeze(e.data), createdAt: e.at, deletedAt: null, destroyed: false });
  // KV-v2 keeps max_versions versions (versions.ts): the oldest are dropped and oldest_version moves.
  const window = mount.type === 'kv-v1' ? { versions: held.set(version, added), oldest: 0 } : withNewest(held, version, added, prev?.oldest ?? 0, effectiveMaxVersions(prev, mount));
  const rec: KvRecord = freeze({
    // The key's metadata (max_versions, cas_required …) stays; absent fields stay absent.
    ...prev,
    current: version,
    versions: window.versions,
    createdAt: prev?.createdAt ?? e.at,
    updatedAt: e.at,
    ...(window.oldest > 0 ? { oldest: window.oldest } : {}),
  });
  // The persistent maps share all but the changed path: O(log keys + log versions), not a copy.
  return withKeys(c, e.mount, keys.set(e.key, rec), e.at);
}

function kvDeleted(c: ClusterState, e: KvDeleted): ClusterState | null {
  const keys = own(c.storage.kv, e.mount);
  const rec = recordAt(keys, e.key);
  if (!keys || !rec) return null;
  let next: KeyMap;
  if (e.scope === 'all' || c.storage.mounts[e.mount].type === 'kv-v1') {
    next = keys.delete(e.key);
  } else {
    const v = versionAt(rec, rec.current);
    if (!v) return null;
    const latest = freeze({ ...v, deletedAt: e.at });
    next = keys.set(e.key, freeze({ ...rec, versions: rec.versions.set(rec.current, latest), updatedAt: e.at }));
  }
  return withKeys(c, e.mount, next, e.at);
}

/** `<mount>/config` written: the fields given replace the mount's (the rest keep theirs); the WAL advances. */
function kvConfigWritten(c: ClusterState, e: KvConfigWritten): ClusterState {
  const mount = c.storage.mounts[e.mount];
  const before: KvMountConfig = mount.kvConfig ?? { maxVersions: 0, casRequired: false, deleteVersionAfter: 0 };
  const kvConfig: KvMountConfig = freeze({
    maxVersions: e.maxVersions ?? before.maxVersions,
    casRequired: e.casRequired ?? before.casRequired,
    deleteVersionAfter: e.deleteVersionAfter ?? before.deleteVersionAfter,
  });
  return withStorage(c, freeze({ ...c.storage, mounts: freeze({ ...c.storage.mounts, [e.mount]: freeze({ ...mount, kvConfig }) }) }), e.at);
}

/**
 * `<mount>/metadata/<key>` written: the fields given replace the key's; a key without a record gets
 * one with no versions (current_version 0), created and updated now, as the service does. Versions
 * are not pruned here: a lowered max_versions applies on the next write (path_metadata.go).
 */
function kvMetadataWritten(c: ClusterState, e: KvMetadataWritten): ClusterState {
  const keys = own(c.storage.kv, e.mount) ?? emptyKeyMap;
  const prev = recordAt(keys, e.key);
  const rec: KvRecord = freeze({
    ...(prev ?? { current: 0, versions: emptyVersions, createdAt: e.at, updatedAt: e.at }),
    ...(e.maxVersions !== undefined ? { maxVersions: e.maxVersions } : {}),
    ...(e.casRequired !== undefined ? { casRequired: e.casRequired } : {}),
    ...(e.deleteVersionAfter !== undefined ? { deleteVersionAfter: e.deleteVersionAfter } : {}),
    ...(e.customMetadata !== undefined ? { customMetadata: deepFreeze(Object.fromEntries(Object.entries(e.customMetadata))) } : {}),
  });
  return withKeys(c, e.mount, keys.set(e.key, rec), e.at);
}

export const coreReducers = {
  'world-created': (s, e: WorldCreated) => {
    let clusters = s.clusters;
    for (const c of e.clusters) clusters = clusters.set(c.name, deepFreeze(c));
    const network = e.latencyMs === s.network.latencyMs ? s.network : { ...s.network, latencyMs: e.latencyMs };
    // The world's first state: every record in it frozen, as in every state after an event.
    return { seed: e.seed, network: deepFreeze(network), clusters, operators: deepFreeze(e.operators), stores: deepFreeze(s.stores) };
  },
  // The engine moves `now` to the event's time; nothing else changes.
  'time-advanced': (_s, _e: TimeAdvanced) => null,
  'kv-written': onClusterStep(kvWritten),
  'kv-deleted': onClusterStep(kvDeleted),
  'kv-config-written': onClusterStep(kvConfigWritten),
  'kv-metadata-written': onClusterStep(kvMetadataWritten),
  // A mount is replicated configuration (a local one reaches DR secondaries only): its change advances the WAL.
  'mount-enabled': onReplicatedCluster((c, e: MountEnabled) => {
    c.storage.mounts[e.mount.path] = e.mount;
  }),
  'mount-disabled': onReplicatedCluster((c, e: MountDisabled) => {
    delete c.storage.mounts[e.mount];
    delete c.storage.kv[e.mount];
  }),
  // The server's own configuration: not storage, not replicated, no WAL. Back to the default, it is absent again.
  'server-config-reloaded': onCluster((c, e: ServerConfigReloaded) => {
    if (e.enableUnauthenticatedAccess.length) c.serverConfig = { enableUnauthenticatedAccess: [...e.enableUnauthenticatedAccess] };
    else delete c.serverConfig;
  }),
} satisfies SimReducers;
