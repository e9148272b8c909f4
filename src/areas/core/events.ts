// The domain events of clusters. Each line above a type says who emits it and what it means.
// Events carry every random value and time they need, so reducers never draw or read a clock.
import type { BaseEvent } from '../../kernel/engine.js';
import type { NetworkEvent } from '../../kernel/network.js';
import type { ClusterState } from './state.js';

/** Emitted once, first, by createWorld: the clusters as initialised (ids, tokens, keys drawn). */
export interface WorldCreated extends BaseEvent {
  type: 'world-created';
  seed: number;
  latencyMs: number;
  clusters: ClusterState[];
  operators: Record<string, { rootToken: string; keys: string[]; tokens: Record<string, string> }>;
}

/** Emitted by World.advance: virtual time reached `at` (after any timed events before it). */
export interface TimeAdvanced extends BaseEvent {
  type: 'time-advanced';
}

/** A KV write was accepted on `cluster` (a client's, or one forwarded from a performance secondary). */
export interface KvWritten extends BaseEvent {
  type: 'kv-written';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary. */
  forwardedBy?: string;
  /** Mount path, "secret/". */
  mount: string;
  key: string;
  data: Record<string, unknown>;
}

/** A KV delete was accepted: the latest version (KV-v2 data delete), or the key with all versions. */
export interface KvDeleted extends BaseEvent {
  type: 'kv-deleted';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary. */
  forwardedBy?: string;
  mount: string;
  key: string;
  scope: 'latest' | 'all';
}

/**
 * A KV-v2 mount's `config` was written (on `cluster`, or forwarded to it): the fields present replace
 * the mount's. Replicated state: it advances the WAL and reaches the secondaries with the mount.
 */
export interface KvConfigWritten extends BaseEvent {
  type: 'kv-config-written';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary. */
  forwardedBy?: string;
  mount: string;
  maxVersions?: number;
  casRequired?: boolean;
  /** Seconds; -1 disables it on every key (the service's sentinel for a negative value). */
  deleteVersionAfter?: number;
}

/** A KV-v2 key's metadata was written: the fields present replace the key's (a key with no record gets one, with no versions). */
export interface KvMetadataWritten extends BaseEvent {
  type: 'kv-metadata-written';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary. */
  forwardedBy?: string;
  mount: string;
  key: string;
  maxVersions?: number;
  casRequired?: boolean;
  /** Seconds. */
  deleteVersionAfter?: number;
  customMetadata?: Record<string, string>;
}

/** A secrets engine was enabled (`sys/mounts/:path`): replicated, unless local. */
export interface MountEnabled extends BaseEvent {
  type: 'mount-enabled';
  cluster: string;
  mount: import('./state.js').MountEntry;
}

/** A secrets engine was disabled: the mount and everything stored under it are gone. */
export interface MountDisabled extends BaseEvent {
  type: 'mount-disabled';
  cluster: string;
  /** Full path with its trailing slash. */
  mount: string;
}

/**
 * A cluster's server configuration was edited and reloaded (SIGHUP): `enable_unauthenticated_access`
 * now lists these families (empty: none, the default).
 */
export interface ServerConfigReloaded extends BaseEvent {
  type: 'server-config-reloaded';
  cluster: string;
  enableUnauthenticatedAccess: string[];
}

export type CoreEvent = WorldCreated | TimeAdvanced | KvWritten | KvDeleted | KvConfigWritten | KvMetadataWritten | MountEnabled | MountDisabled | ServerConfigReloaded | NetworkEvent;

/**
 * The events of the spec areas, by area: each area declares its own in a types-only module (a
 * `declare module` block adding its entry here), so the core names no area.
 */
export interface AreaEvents {}

/** The events of the spec areas. */
export type DomainEvent = AreaEvents[keyof AreaEvents];

/** Every event a world's log can hold. */
export type SimEvent = CoreEvent | DomainEvent;
