// What a primary's replication carries to one secondary. DR secondaries receive everything (local
// mounts and tokens included), so their storage simply becomes the primary's. Performance
// secondaries receive the replicated (non-local) mounts their filter lets through, keep their own
// tokens and their own local mounts.
//
// Sub-objects are shared, never deep-copied: the core reducers replace storage objects rather than
// mutate them (immer copies on write), so a secondary holding the primary's objects is safe.
import type { ClusterState, MountEntry, ReplicationKind, Storage } from '../core/state.js';
import { filterFor, filterIncludesMount, filterIncludesNamespace } from './filters.js';

export interface ReplicationScope {
  /** The secondary's storage becomes the primary's as a whole (DR). */
  mirror: boolean;
  /** The secondary's WAL index follows the primary's, so a promoted secondary continues its numbering. */
  mirrorsWal: boolean;
  /**
   * Whether one of the primary's non-local mounts reaches this secondary (the performance paths
   * filter goes here). Consulted only when `mirror` is false.
   */
  includesMount(primary: ClusterState, secondaryId: string, mount: MountEntry): boolean;
  /** Whether one of the primary's namespaces reaches this secondary. Consulted only when `mirror` is false. */
  includesNamespace(primary: ClusterState, secondaryId: string, namespace: string): boolean;
}

/**
 * The scope of each kind; the delivery mechanism reads it at every sync and delivery. Performance
 * secondaries receive what the paths filter the primary keeps for their secondary id lets through
 * (filters.ts).
 */
export const replicationScopes: Record<ReplicationKind, ReplicationScope> = {
  dr: { mirror: true, mirrorsWal: true, includesMount: () => true, includesNamespace: () => true },
  performance: {
    mirror: false,
    mirrorsWal: false,
    includesMount: (primary, secondaryId, mount) => filterIncludesMount(filterFor(primary, secondaryId), mount.path),
    includesNamespace: (primary, secondaryId, namespace) => filterIncludesNamespace(filterFor(primary, secondaryId), namespace),
  },
};

/** The storage a secondary holds once it has caught up with its primary. */
export function replicatedStorage(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState, secondaryId: string): Storage {
  const scope = replicationScopes[kind];
  if (scope.mirror) return primary.storage;
  const from = primary.storage;
  const own = secondary.storage;
  const namespaces: Storage['namespaces'] = {};
  for (const [path, ns] of Object.entries(from.namespaces)) if (scope.includesNamespace(primary, secondaryId, path)) namespaces[path] = ns;
  const mounts: Storage['mounts'] = {};
  const kv: Storage['kv'] = {};
  for (const [path, m] of Object.entries(from.mounts)) {
    if (m.local || !scope.includesMount(primary, secondaryId, m)) continue;
    if (m.namespace !== '' && !(m.namespace in namespaces)) continue;
    mounts[path] = m;
    if (from.kv[path]) kv[path] = from.kv[path];
  }
  // The secondary's own local mounts stay: they never leave it and replication never overwrites them.
  for (const [path, m] of Object.entries(own.mounts)) {
    if (!m.local || path in mounts) continue;
    mounts[path] = m;
    if (own.kv[path]) kv[path] = own.kv[path];
  }
  const out: Storage = { namespaces, mounts, kv, tokens: own.tokens, keyring: from.keyring };
  // ACL policies and token roles are replicated configuration; tokens stay local (above).
  if (from.policies) out.policies = from.policies;
  // A namespace's policies go where the namespace goes.
  if (from.namespacePolicies) {
    const kept = Object.fromEntries(Object.entries(from.namespacePolicies).filter(([ns]) => ns in namespaces));
    if (Object.keys(kept).length) out.namespacePolicies = kept;
  }
  if (from.tokenRoles) out.tokenRoles = from.tokenRoles;
  return out;
}

/**
 * What enabling a secondary leaves of its storage: nothing it stored, and the primary's keyring
 * (so its operators now use the primary's key shares). A DR secondary also holds the primary's
 * tokens (the primary's root token works there); a performance secondary keeps tokens local, so it
 * has none at all until an operator generates a root token there (sys/generate-root, with the
 * primary's key shares). When the primary is not known (an address that matches no cluster), the
 * cluster keeps its own keyring until it connects.
 */
export function wipedStorage(kind: ReplicationKind, secondary: ClusterState, primary: ClusterState | null): Storage {
  return {
    namespaces: {},
    mounts: {},
    kv: {},
    tokens: primary && replicationScopes[kind].mirror ? primary.storage.tokens : {},
    keyring: primary ? primary.storage.keyring : secondary.storage.keyring,
  };
}
