// One simulated cluster, as plain data inside the world state. Everything the service stores lives
// under `storage`, which is what replication copies and what enabling a secondary wipes; the rest is
// the cluster's identity and the state of its replication roles and generation attempt.

export type License = 'enterprise' | 'managed' | 'none';
export type MountType = 'kv-v1' | 'kv-v2';
import type { SortedMap } from '../../kernel/sorted-map.js';
import type { Answer } from '../../kernel/engine.js';
import type { ClusterTable } from './cluster-table.js';
import type { VersionRun } from './version-run.js';
import type { Capability, ReplicationKind } from './vocabulary.js';
export type { Capability, ReplicationKind };

/** Path glob → capabilities, as in the scenario file's `tokens.<name>.policy`. */
export type Policy = Record<string, Capability[]>;

export interface MountEntry {
  /** Full path with its namespace and a trailing slash: "secret/", "team-a/apps/". */
  path: string;
  type: MountType;
  /** A local mount never leaves its cluster, except to DR secondaries. */
  local: boolean;
  accessor: string;
  uuid: string;
  /** The namespace it lives in: "" for root, else "team-a/". */
  namespace: string;
  /**
   * KV-v2 only: the mount's `<mount>/config` (max_versions, cas_required, delete_version_after), once
   * written. Absent means the service's defaults. It lives with the mount entry because the service
   * keeps it in the mount's own storage: it replicates as the mount does (a local mount's stays local).
   */
  kvConfig?: KvMountConfig;
  /** Set when enabled through `sys/mounts` (a scenario's mounts have none): what a read reports. */
  description?: string;
  /** `sys/mounts` `config` and `options` as given (the lease TTLs and the like are stored, not simulated). */
  config?: Record<string, unknown>;
  options?: Record<string, unknown>;
  sealWrap?: boolean;
  externalEntropyAccess?: boolean;
  pluginVersion?: string;
}

/** A KV-v2 mount's `config`, as the service stores it (src/areas/core/README.md, "KV v2 versions"). */
export interface KvMountConfig {
  /** 0 means the default (10). */
  maxVersions: number;
  casRequired: boolean;
  /** Seconds; 0 unset, -1 disabled on every key (the service's sentinel). Reported, not simulated. */
  deleteVersionAfter: number;
}

export interface NamespaceEntry {
  /** "team-a/" or "team-a/dev/". */
  path: string;
  id: string;
}

export interface KvVersion {
  data: Record<string, unknown>;
  createdAt: number;
  deletedAt: number | null;
  destroyed: boolean;
}

/** A key's versions, a contiguous run by number (version-run.ts), read through versions.ts. */
export type Versions = VersionRun<KvVersion>;

/**
 * One key of a KV mount. KV-v1 keeps a single version (1), overwritten in place. KV-v2 keeps at most
 * `max_versions` (versions.ts `effectiveMaxVersions`): older ones are dropped and `oldest` moves.
 * The optional fields are the key's metadata (`<mount>/metadata/<key>`), present once set, so a
 * record that never had any serialises as it always did.
 */
export interface KvRecord {
  /** 0 for a key whose metadata was written before any data. */
  current: number;
  versions: Versions;
  createdAt: number;
  updatedAt: number;
  /** The service's `oldest_version`; absent while 0. */
  oldest?: number;
  /** The key's own `max_versions` (0: the mount's). */
  maxVersions?: number;
  casRequired?: boolean;
  /** Seconds; reported, not simulated. */
  deleteVersionAfter?: number;
  customMetadata?: Readonly<Record<string, string>>;
}

export interface TokenEntry {
  /** The token itself, `hvs.` + 24 characters (`hvb.` and its sealed claims for a batch token). */
  id: string;
  /** "" for a batch token, which has none. */
  accessor: string;
  /** The scenario's name for it (`root`, `ops`, ...), for narration. */
  name: string;
  namespace: string;
  /** `root` grants everything; else the rules written inline in the scenario (`{}` for a token made through the API). */
  policy: Policy | 'root';
  // What a token made through `auth/token/create` (or declared with them in a scenario) carries
  // besides; absent on the scenario's inline-policy tokens and the root token, which keep their form.
  /** Named ACL policies (`sys/policies/acl`), resolved on the cluster that checks the token. */
  policies?: string[];
  type?: 'service' | 'batch';
  /** Virtual ms; null when it never expires. */
  expiresAt?: number | null;
  issuedAt?: number;
  /** The TTL it was created with, in seconds. */
  creationTtl?: number;
  orphan?: boolean;
  renewable?: boolean;
  /** The token role it was created against, or "". */
  role?: string;
  displayName?: string;
  meta?: Record<string, string>;
  numUses?: number;
  explicitMaxTtl?: number;
  period?: number;
  /** The token that created it (a service token that is not an orphan): revoking the parent revokes it. */
  parent?: string;
}

/** A named ACL policy: its text as written, and the rules read from it. */
export interface AclPolicy {
  name: string;
  text: string;
  rules: Policy;
}

/** A token role (`auth/token/roles/:role_name`): what tokens created against it get. Durations in seconds. */
export interface TokenRole {
  name: string;
  allowed_policies: string[];
  disallowed_policies: string[];
  allowed_policies_glob: string[];
  disallowed_policies_glob: string[];
  orphan: boolean;
  renewable: boolean;
  /** `service`, `batch`, `default-service` or `default-batch`. */
  token_type: string;
  token_explicit_max_ttl: number;
  token_period: number;
  token_num_uses: number;
  token_no_default_policy: boolean;
  token_bound_cidrs: string[];
  path_suffix: string;
  allowed_entity_aliases: string[];
}

export interface Keyring {
  /** The root key the shares recombine to (hex). */
  rootKeyHex: string;
  threshold: number;
  shares: number;
}

/** A mount's key map, key → record: a persistent map, read through keymap.ts. */
export type KeyMap = SortedMap<KvRecord>;

/** What the service stores, and so what replication carries and enable-as-secondary wipes. */
export interface Storage {
  namespaces: Record<string, NamespaceEntry>;
  mounts: Record<string, MountEntry>;
  /** Mount path → key → record (a persistent map: keymap.ts). */
  kv: Record<string, KeyMap>;
  tokens: Record<string, TokenEntry>;
  keyring: Keyring;
  // Absent until first written, so a world that uses none keeps the state (and hash) it always had.
  /** Named ACL policies by name (replicated): the root namespace's. */
  policies?: Record<string, AclPolicy>;
  /** The ACL policies of the other namespaces: namespace path (`team-a/`) → name → policy (replicated). */
  namespacePolicies?: Record<string, Record<string, AclPolicy>>;
  /** Token roles by name (replicated). */
  tokenRoles?: Record<string, TokenRole>;
}

/**
 * The parts of a cluster's state an area of the spec owns, each declared by that area (a `declare
 * module` block beside its state types: replication/state.ts, merkle/state.ts, operation-token/
 * operation-token.ts, sync/types.ts, plugins/types.ts), so the core names no area.
 */
export interface AreaClusterState {}

export interface ClusterState extends AreaClusterState {
  name: string;
  version: string;
  license: License;
  apiAddr: string;
  clusterAddr: string;
  storage: Storage;
  /** The replicated write-ahead log's last index and when it was written. */
  wal: { last: number; lastAt: number };
  /** Seed of this cluster's Ed25519 key for signing activation tokens (hex). */
  signingSeed: string;
  /** X25519 key pairs made by generate-public-key, per kind (private key kept to open credentials). */
  secondaryKeys: Partial<Record<ReplicationKind, { publicKey: string; privateKey: string }>>;
  /**
   * The server's configuration file, where a scenario or a reload set something in it: absent for
   * the defaults (so a world that sets nothing keeps the state it always had). Not storage: it is
   * each cluster's own, never replicated, and a wipe keeps it.
   */
  serverConfig?: ServerConfig;
}

/** What replsim simulates of a server's configuration file. */
export interface ServerConfig {
  /** `enable_unauthenticated_access` (2.x): the endpoint families served without a token again. */
  enableUnauthenticatedAccess: string[];
}

/** The world's clusters by name: a persistent table (cluster-table.ts). */
export type Clusters = ClusterTable<ClusterState>;

/** The parts of the world's state an area owns outside every cluster (sync's external stores: sync/types.ts). */
export interface AreaWorldState {}

/** What the world holds: the clusters, the network and the clock. */
export interface SimState extends AreaWorldState {
  now: number;
  seed: number;
  network: import('../../kernel/network.js').NetworkState;
  /** The clusters by name: a persistent table (cluster-table.ts). */
  clusters: Clusters;
  /** What each cluster's operators were handed at initialisation: root token and key shares (base64). */
  operators: Record<string, { rootToken: string; keys: string[]; tokens: Record<string, string> }>;
  /**
   * What a primary held as of each WAL still on its way to a follower (by cluster, then WAL index): a
   * WAL shipment delivers the primary's data as of that WAL, not later writes still in flight
   * (src/areas/replication/shipping.ts). Absent when no WAL is in flight behind a newer one.
   */
  walAsOf?: Record<string, Record<string, ClusterState>>;
}

/**
 * Freezes a new value and what it holds, as immer does: plain objects and arrays, stopping at frozen
 * ones. (Its own test of what is plain rather than immer's `isDraftable`, which also asks about Maps,
 * Sets and classes marked draftable: none is in the state, and it was a fifth of a KV write's freezing.)
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const v of value) deepFreeze(v);
    return Object.freeze(value);
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  return Object.freeze(value);
}

// Copies for the reducers that build with literals (the hot ones). Spreading a frozen object takes V8's slow path: copying
// a cluster (15 fields) or a replication record (18) with `{ ...frozen }` cost ~190 ns, a literal
// naming the fields ~12 ns. Every cluster and replication record is made with its fields in the
// order declared above (genesis, `emptyReplication`, and edits that keep the order of the record
// they start from), so a literal in that order builds what a spread would, keys in the same order.

/** The WAL position after one more replicated write at `at`: a new frozen record (a DR secondary shares its primary's position, so none is edited in place). */
export function advancedWal(wal: ClusterState['wal'], at: number): ClusterState['wal'] {
  return Object.freeze({ last: wal.last + 1, lastAt: at });
}

/** A shallow, mutable copy of a cluster. */
export function copyCluster(c: ClusterState): ClusterState {
  return {
    name: c.name,
    version: c.version,
    license: c.license,
    apiAddr: c.apiAddr,
    clusterAddr: c.clusterAddr,
    storage: c.storage,
    wal: c.wal,
    replication: c.replication,
    generation: c.generation,
    drOperationToken: c.drOperationToken,
    merkle: c.merkle,
    signingSeed: c.signingSeed,
    secondaryKeys: c.secondaryKeys,
    sync: c.sync,
    plugins: c.plugins,
    // Last, and only when set, as an edit adds it.
    ...(c.serverConfig !== undefined ? { serverConfig: c.serverConfig } : {}),
  };
}

/** The root's fields, in the order a world's state has them (src/world.ts `emptyState`; `walAsOf` comes and goes last). */
const ROOT_FIELDS = new Set(['now', 'seed', 'network', 'clusters', 'operators', 'stores', 'walAsOf']);

/**
 * The next state from a reducer's answer (the fields it changed) and the clock, as a literal
 * (engine.ts `Assemble`): what `{ ...state, ...changed, now }` frozen gives, keys in the same order,
 * without spreading a frozen object. A field it does not know falls back to the spread.
 */
export function nextState(state: SimState, changed: Answer<SimState>, now: number): SimState {
  // `touched` is what the reducer reported, no field of the state (engine.ts `Answer`).
  for (const k in changed)
    if (!ROOT_FIELDS.has(k) && k !== 'touched') {
      const { touched: _touched, ...fields } = changed;
      return Object.freeze({ ...state, ...fields, now });
    }
  const next: SimState = {
    now,
    seed: 'seed' in changed ? changed.seed! : state.seed,
    network: changed.network ?? state.network,
    clusters: changed.clusters ?? state.clusters,
    operators: changed.operators ?? state.operators,
    stores: changed.stores ?? state.stores,
  };
  if ('walAsOf' in changed) next.walAsOf = changed.walAsOf;
  else if ('walAsOf' in state) next.walAsOf = state.walAsOf;
  return Object.freeze(next);
}