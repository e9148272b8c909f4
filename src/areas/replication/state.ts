// Replication's part of a cluster's state: one record per kind (DR, performance), with the tokens a
// primary issued, the paths filters, and a secondary's side of its link. Declared to the core
// (src/areas/core/state.ts `AreaClusterState`), which names no area.
import type { RoleValue } from '../../../models/replication-role.machine.js';
import type { ClusterState, ReplicationKind } from '../core/state.js';
import type { HeartbeatAnchor } from './heartbeats.js';

/** An activation token a primary issued, by secondary id. */
export interface IssuedSecondary {
  id: string;
  /** The token's `jti`; the token is single use. */
  jti: string;
  issuedAt: number;
  expiresAt: number;
  /** Set once a secondary activated with it. */
  usedBy: string | null;
  /** Encrypted to a secondary's public key instead of response wrapping. */
  publicKey: boolean;
  revoked: boolean;
  /**
   * Performance only: the paths filter set for this secondary id (paths-filter/:id), or null. It
   * lives with the token: a new token for the id starts without one (area B rule 1).
   */
  filter: PathsFilter | null;
}

/** A performance secondary's paths filter: in `allow` mode only the listed paths reach it, in `deny` mode all but them. */
export interface PathsFilter {
  mode: 'allow' | 'deny';
  /** Mount and namespace paths, each with a trailing slash: "secret/", "team-a/", "team-a/apps/". */
  paths: string[];
}

/** The primary's mounts and namespaces a paths filter keeps from one secondary (the dynamic filter). */
export interface DynamicFilter {
  mounts: string[];
  namespaces: string[];
}

/** A primary's view of one secondary that activated with its token. */
export interface ConnectedSecondary {
  id: string;
  cluster: string;
}

/** One kind of replication (DR or performance) on one cluster. */
export interface ReplicationState {
  role: RoleValue;
  /** The replication set's id (`cluster_id`); "" until first enabled. */
  clusterId: string;
  primaryClusterAddr: string;
  /** Primary side: every token issued, by secondary id (what `known_secondaries` lists). */
  issued: Record<string, IssuedSecondary>;
  /**
   * The `jti` of every activation token revoked that this cluster knows of: revoked here, or received
   * from its primary with `issued`. Never forgotten (a wipe keeps it: each jti is unique), so those
   * credentials stay barred even once the id is issued a new token, which replaces the record in `issued`.
   */
  revokedCredentials: string[];
  /** Secondary side: the cluster it follows, or null. */
  primary: string | null;
  /** Secondary side: the id it was activated under. */
  secondaryId: string;
  /** Secondary side: the `jti` of the activation token it last redeemed; the primary knows it by that. */
  jti: string;
  /** Secondary side: the API address of the primary it follows (the token's `addr` or `primary_api_addr`). */
  primaryApiAddr: string;
  /** Secondary side: the primary's WAL index it has applied. */
  lastRemoteWal: number;
  /** Secondary side: whether it holds a full data set (initial sync done since activation, or a demoted former primary): promote's safety check. */
  synced: boolean;
  /** Secondary side: whether its link to the primary is established (set by connect/disconnect events). */
  connected: boolean;
  /** Secondary side: the replication state the status record reports while connected. */
  /** The connection machine's value as stored: its phase, or idle / shutdown while following nobody. */
  syncState: 'idle' | 'shutdown' | 'merkle-sync' | 'merkle-diff' | 'stream-wals';
  /** Secondary side: when it was told to follow its primary (what `last_heartbeat` reads before any connection). */
  followedAt: number;
  /** Secondary side: when its current or latest connection to that primary was established, or null (none yet). */
  connectedAt: number | null;
  /** Secondary side: when that connection ended, or null while it stands (replication/heartbeats.ts reads both). */
  disconnectedAt: number | null;
  /**
   * Secondary side: where the heartbeats of the connection established at `connectedAt` stood when
   * its link's latency last changed (heartbeats.ts); absent while the link kept one latency, so a
   * world that never slows a link keeps the state (and state hash) it had.
   */
  heartbeats?: HeartbeatAnchor;
  /** Secondary side: which ends of the connection established at `connectedAt` crashed since, and so forgot the heartbeats they had heard; absent when none did. */
  heartbeatsForgotten?: { connectedAt: number; by: 'primary' | 'secondary' | 'both' };
  knownPrimaryClusterAddrs: string[];
  /** When the current role began (for `last_start`). */
  since: number;
  /** Performance secondary side: what its primary filters from it, as of the last sync (its dynamic filter). */
  dynamicFilter: DynamicFilter;
  /**
   * DR only: the performance replication this cluster takes up when promoted. On a DR secondary, its
   * DR primary's (as of the last sync, since DR carries everything); on a demoted DR primary, its own,
   * held while it is a DR secondary. Null otherwise.
   */
  mirroredPerformance: ReplicationState | null;
}

export function emptyReplication(): ReplicationState {
  return {
    role: 'disabled',
    clusterId: '',
    primaryClusterAddr: '',
    issued: {},
    revokedCredentials: [],
    primary: null,
    secondaryId: '',
    jti: '',
    primaryApiAddr: '',
    lastRemoteWal: 0,
    synced: false,
    connected: false,
    syncState: 'idle',
    followedAt: 0,
    connectedAt: null,
    disconnectedAt: null,
    knownPrimaryClusterAddrs: [],
    since: 0,
    dynamicFilter: { mounts: [], namespaces: [] },
    mirroredPerformance: null,
  };
}

/** A shallow, mutable copy of a replication record. */
export function copyReplication(r: ReplicationState): ReplicationState {
  const copy = plainCopy(r);
  if (r.heartbeats) copy.heartbeats = r.heartbeats;
  if (r.heartbeatsForgotten) copy.heartbeatsForgotten = r.heartbeatsForgotten;
  return copy;
}

function plainCopy(r: ReplicationState): ReplicationState {
  return {
    role: r.role,
    clusterId: r.clusterId,
    primaryClusterAddr: r.primaryClusterAddr,
    issued: r.issued,
    revokedCredentials: r.revokedCredentials,
    primary: r.primary,
    secondaryId: r.secondaryId,
    jti: r.jti,
    primaryApiAddr: r.primaryApiAddr,
    lastRemoteWal: r.lastRemoteWal,
    synced: r.synced,
    connected: r.connected,
    syncState: r.syncState,
    followedAt: r.followedAt,
    connectedAt: r.connectedAt,
    disconnectedAt: r.disconnectedAt,
    knownPrimaryClusterAddrs: r.knownPrimaryClusterAddrs,
    since: r.since,
    dynamicFilter: r.dynamicFilter,
    mirroredPerformance: r.mirroredPerformance,
  };
}

/** A cluster's replication records with one kind's replaced (frozen). */
export function withReplication(c: ClusterState, kind: ReplicationKind, r: ReplicationState): ClusterState['replication'] {
  return Object.freeze(kind === 'dr' ? { dr: r, performance: c.replication.performance } : { dr: c.replication.dr, performance: r });
}


declare module '../core/state.js' {
  interface AreaClusterState {
    /** Replication, DR and performance: one record per kind. */
    replication: Record<ReplicationKind, ReplicationState>;
  }
}
