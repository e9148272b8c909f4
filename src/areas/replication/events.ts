// The events of replication, for both kinds (DR and performance): `kind` says which. Each carries
// the values drawn when it was accepted (cluster ids, token ids, key pairs) so that replay draws
// nothing. The first group is emitted by request handlers, the second by the streaming process as
// time passes.
import type { RoleValue } from '../../../models/replication-role.machine.js';
import type { LinkDownReason, SyncPhase } from '../../../models/secondary-connection.machine.js';
import type { BaseEvent } from '../../kernel/engine.js';
import type { ReplicationKind } from '../core/state.js';
import type { PathsFilter } from './state.js';

interface ReplicationBase extends BaseEvent {
  kind: ReplicationKind;
  /** The cluster whose role or state changes. */
  cluster: string;
}

/**
 * An accepted request of the role table: `role` is where the role machine, asked by the handler with
 * the facts it checked (tokens, safety checks, force), moved the cluster. The reducer applies it; no
 * code outside the machine restates the table, and no reducer asks the machine again.
 */
interface RoleMoved {
  role: RoleValue;
}

/** primary/enable accepted: the cluster becomes a primary of a new replication set, `clusterId` drawn then. */
export interface PrimaryEnabled extends ReplicationBase, RoleMoved {
  type: 'replication-primary-enabled';
  clusterId: string;
  /** The cluster address it gives its secondaries ("" when not set). */
  primaryClusterAddr: string;
}

/** primary/demote accepted: the primary becomes a secondary that follows nobody; its cluster id stays. */
export interface PrimaryDemoted extends ReplicationBase, RoleMoved {
  type: 'replication-primary-demoted';
}

/** primary/disable accepted: replication is off on the cluster; its secondaries can no longer connect. */
export interface PrimaryDisabled extends ReplicationBase, RoleMoved {
  type: 'replication-primary-disabled';
}

/** primary/secondary-token accepted: the primary issued an activation token for secondary `id`. */
export interface SecondaryTokenIssued extends ReplicationBase {
  type: 'replication-secondary-token-issued';
  id: string;
  /** The token's `jti`: single use, and the primary knows the secondary by it afterwards. */
  jti: string;
  expiresAt: number;
  /** Sealed to a `secondary_public_key` instead of response-wrapped. */
  publicKey: boolean;
}

/** primary/revoke-secondary accepted: secondary `id` is barred until it is given a new token. */
export interface SecondaryRevoked extends ReplicationBase {
  type: 'replication-secondary-revoked';
  id: string;
}

/** secondary/generate-public-key accepted: the cluster keeps a fresh X25519 key pair for this kind. */
export interface SecondaryKeyGenerated extends ReplicationBase {
  type: 'replication-secondary-key-generated';
  publicKey: string;
  privateKey: string;
}

/** What a secondary learned from redeeming an activation token (or chose from update_primary_addrs). */
export interface PrimaryAssignment {
  /** The cluster it follows; null when the address it was given matches no cluster. */
  primary: string | null;
  primaryApiAddr: string;
  primaryClusterAddr: string;
  knownPrimaryClusterAddrs: string[];
  secondaryId: string;
  jti: string;
  /** The replication set's id, adopted from the primary. */
  clusterId: string;
}

/** secondary/enable accepted: storage wiped at once, the primary's keyring adopted; it will connect. */
export interface SecondaryEnabled extends ReplicationBase, RoleMoved, PrimaryAssignment {
  type: 'replication-secondary-enabled';
}

/** secondary/promote accepted: the secondary becomes a primary of the same set (same cluster id). */
export interface SecondaryPromoted extends ReplicationBase, RoleMoved {
  type: 'replication-secondary-promoted';
  primaryClusterAddr: string;
  force: boolean;
  /** Whether the safety checks passed; a forced promotion without them may lose data. */
  safetyChecksPassed: boolean;
}

/** secondary/disable accepted: replication is off on the (former) secondary; storage is kept. */
export interface SecondaryDisabled extends ReplicationBase, RoleMoved {
  type: 'replication-secondary-disabled';
}

/**
 * secondary/update-primary accepted, without a wipe: the secondary follows another primary (a new
 * token, or the first answering address), or forgets its primary (an empty token).
 */
export interface SecondaryPrimaryUpdated extends ReplicationBase, RoleMoved, PrimaryAssignment {
  type: 'replication-secondary-primary-updated';
  via: 'token' | 'addresses' | 'empty-token';
}

/** Streaming process: a secondary's link to its primary came up (one link latency after it could). */
export interface SecondaryConnected extends ReplicationBase {
  type: 'replication-secondary-connected';
  primary: string;
  /** What the connection came up into, as the connection machine answered on the link's facts then: a sync first, or streaming WALs. */
  phase: SyncPhase;
}

/** Streaming process: the secondary's initial sync (merkle-sync, or merkle-diff) finished; it streams WALs. */
export interface SecondarySynced extends ReplicationBase {
  type: 'replication-secondary-synced';
  primary: string;
  /** The primary's WAL index the secondary now holds. */
  wal: number;
}

/** Streaming process: WALs up to `wal` reached the secondary. */
export interface WalDelivered extends ReplicationBase {
  type: 'replication-wal-delivered';
  primary: string;
  wal: number;
}

/** Streaming process: the secondary's link to its primary went down (a partition, a crash, a revocation, a role change). */
export interface SecondaryDisconnected extends ReplicationBase {
  type: 'replication-secondary-disconnected';
  primary: string;
  reason: LinkDownReason;
}

/**
 * recover accepted (`sys/replication/recover`, or a DR secondary's `dr/secondary/recover`): each
 * kind in `kinds` is one the cluster follows a primary in; its connection is closed and dialled
 * again at once, into a merkle diff (the connection machine's `follow`).
 */
export interface ReplicationRecovered extends BaseEvent {
  type: 'replication-recovered';
  cluster: string;
  kinds: ReplicationKind[];
}

/** Why a link is down: the connection machine's words (models/secondary-connection.machine.ts). */
export type { LinkDownReason } from '../../../models/secondary-connection.machine.js';

export type ReplicationEvent =
  | PrimaryEnabled
  | PrimaryDemoted
  | PrimaryDisabled
  | SecondaryTokenIssued
  | SecondaryRevoked
  | SecondaryKeyGenerated
  | SecondaryEnabled
  | SecondaryPromoted
  | SecondaryDisabled
  | SecondaryPrimaryUpdated
  | SecondaryConnected
  | SecondarySynced
  | WalDelivered
  | SecondaryDisconnected
  | ReplicationRecovered;

/** paths-filter/:id POST accepted on a performance primary: secondary `id` now receives only what the filter lets through. */
export interface PathsFilterSet extends BaseEvent {
  type: 'replication-paths-filter-set';
  kind: 'performance';
  /** The primary. */
  cluster: string;
  id: string;
  mode: PathsFilter['mode'];
  paths: string[];
}

/** paths-filter/:id DELETE accepted on a performance primary: secondary `id` receives every replicated mount again. */
export interface PathsFilterDeleted extends BaseEvent {
  type: 'replication-paths-filter-deleted';
  kind: 'performance';
  cluster: string;
  id: string;
}

export type FilterEvent = PathsFilterSet | PathsFilterDeleted;

// This area's events, declared to the core's union of every event (cluster/events.ts).
declare module '../core/events.js' {
  interface AreaEvents {
    replication: ReplicationEvent | FilterEvent;
  }
}
