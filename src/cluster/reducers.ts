// How the core events change the world state. Replication's own events have their reducers beside
// their handlers' domain code; the world composes all tables into one.
import type { KvDeleted, KvWritten, MerkleCorrupted, TimeAdvanced, WorldCreated } from './events.js';
import type { ClusterState, KvRecord, SimState } from './state.js';

/** A write or delete advanced the cluster's WAL (local mounts included: DR secondaries get them). */
function bumpWal(c: ClusterState, at: number): void {
  c.wal.last += 1;
  c.wal.lastAt = at;
}

export const coreReducers = {
  'world-created': (d: SimState, e: WorldCreated) => {
    d.seed = e.seed;
    d.network.latencyMs = e.latencyMs;
    for (const c of e.clusters) d.clusters[c.name] = c;
    d.operators = e.operators;
  },
  'time-advanced': (_d: SimState, _e: TimeAdvanced) => {
    // The engine moves `now` to the event's time; nothing else changes.
  },
  'kv-written': (d: SimState, e: KvWritten) => {
    const c = d.clusters[e.cluster];
    const mount = c.storage.mounts[e.mount];
    const keys = (c.storage.kv[e.mount] ??= {});
    const prev: KvRecord | undefined = keys[e.key];
    const version = mount.type === 'kv-v1' ? 1 : (prev?.current ?? 0) + 1;
    const versions = mount.type === 'kv-v1' || !prev ? {} : prev.versions;
    keys[e.key] = {
      current: version,
      versions: { ...versions, [version]: { data: e.data, createdAt: e.at, deletedAt: null, destroyed: false } },
      createdAt: prev?.createdAt ?? e.at,
      updatedAt: e.at,
    };
    bumpWal(c, e.at);
  },
  'kv-deleted': (d: SimState, e: KvDeleted) => {
    const c = d.clusters[e.cluster];
    const keys = c.storage.kv[e.mount];
    const rec = keys?.[e.key];
    if (!rec) return;
    if (e.scope === 'all' || c.storage.mounts[e.mount].type === 'kv-v1') delete keys[e.key];
    else keys[e.key] = { ...rec, versions: { ...rec.versions, [rec.current]: { ...rec.versions[rec.current], deletedAt: e.at } }, updatedAt: e.at };
    bumpWal(c, e.at);
  },
  'merkle-corrupted': (d: SimState, e: MerkleCorrupted) => {
    const pages = d.clusters[e.cluster].merkle.corrupted[e.tree];
    const subpages = pages[e.page] ?? [];
    if (!subpages.includes(e.subpage)) pages[e.page] = [...subpages, e.subpage].sort((a, b) => a - b);
  },
};

/** The record's live version, or null when absent, deleted or destroyed. */
export function liveVersion(rec: KvRecord | undefined): { version: number; data: Record<string, unknown>; createdAt: number } | null {
  if (!rec) return null;
  const v = rec.versions[rec.current];
  if (!v || v.deletedAt !== null || v.destroyed) return null;
  return { version: rec.current, data: v.data, createdAt: v.createdAt };
}
