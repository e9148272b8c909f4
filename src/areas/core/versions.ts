// A KV-v2 key's versions and how many of them the service keeps.
//
// The versions are a persistent run (version-run.ts: a frozen array while short, an immutable.js `List`
// when a key keeps thousands): a write adds the newest and drops the oldest, sharing the rest, where a
// plain object would be copied whole per write (over a millisecond a write for a key rewritten 10k
// times). Canonical JSON prints a run as the sorted object it stands for.
//
// How many are kept is the service's `KeyMetadata.AddVersion` (hashicorp/vault-plugin-secrets-kv,
// path_data.go): the larger of the key's and the mount's `max_versions`, and 10 when both are 0.
// When a write makes `current - oldest >= max`, every version up to `current - max` is dropped and
// `oldest_version` becomes `current - max + 1`. So `oldest_version` stays 0 until the first time a
// key reaches its max (at 10 writes it becomes 1 with version 1 still held), and a lowered max prunes
// on the next write, not when it is set.
import type { KvRecord, KvVersion, MountEntry, Versions } from './state.js';
import { VersionRun } from './version-run.js';

export type { Versions };

/** The service's `defaultMaxVersions`. */
export const DEFAULT_MAX_VERSIONS = 10;

export const emptyVersions: Versions = VersionRun.empty<KvVersion>();

/** Version `n` of the record, if it still holds it. */
export function versionAt(rec: KvRecord | undefined, n: number | string): KvVersion | undefined {
  return rec?.versions.get(n);
}

/** The (version number, version) pairs the record holds, oldest first. */
export function versionEntries(rec: KvRecord | undefined): [number, KvVersion][] {
  if (!rec) return [];
  return rec.versions.entries();
}

/** The service's `max(key's max_versions, mount's max_versions)`, or 10 when both are 0. */
export function effectiveMaxVersions(rec: KvRecord | undefined, mount: MountEntry): number {
  const m = Math.max(rec?.maxVersions ?? 0, mount.kvConfig?.maxVersions ?? 0);
  return m > 0 ? m : DEFAULT_MAX_VERSIONS;
}

/**
 * The versions and `oldest_version` after version `current` (`v`) was added: AddVersion's sliding
 * window. Drops versions `oldest … current - max` (one per write, more after max was lowered), in the
 * same step as the addition (a short run is copied once).
 */
export function withNewest(versions: Versions, current: number, v: KvVersion, oldest: number, max: number): { versions: Versions; oldest: number } {
  if (current - oldest < max) return { versions: versions.set(current, v), oldest };
  const last = current - max;
  return { versions: versions.set(current, v, last), oldest: last + 1 };
}

/** The record's live version, or null when absent, deleted or destroyed. */
export function liveVersion(rec: KvRecord | undefined): { version: number; data: Record<string, unknown>; createdAt: number } | null {
  if (!rec) return null;
  const v = versionAt(rec, rec.current);
  if (!v || v.deletedAt !== null || v.destroyed) return null;
  return { version: rec.current, data: v.data, createdAt: v.createdAt };
}
