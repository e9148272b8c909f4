// Secret sync's state and events as types only (what a cluster stores of sync, and what changes it),
// apart from sync.ts so that the cluster's state and the log's event union can name them without
// importing the sync process (which reads the whole world): no import cycle.
import type { AssociationValue, FailureCause } from '../../../models/sync-association.machine.js';
import type { BaseEvent } from '../../kernel/engine.js';
import type { DestinationFault, ExternalStore } from './external-store.js';
import type { DestinationType, Granularity } from './destinations.js';

/** One secret linked (or once linked) to a destination, by `"<mount_accessor>/<secret_name>"`. */
export interface SyncAssociation {
  /** The association machine's value: the link and the progress of its operation. */
  value: AssociationValue;
  /** Full mount path, "secret/" or "team-a/apps/". */
  mount: string;
  accessor: string;
  secretName: string;
  /** Granularity and name template in force when it was linked: later changes to the destination apply to new associations only. */
  granularity: Granularity;
  template: string;
  /** When its status last changed (`updated_at`). */
  updatedAt: number;
  /** Failures in a row of the queued operation. */
  failures: number;
  /** When the queued operation (or its next retry) runs; null when none is queued. */
  dueAt: number | null;
  /** The secret's version as last delivered ("" before the first delivery). */
  source: string;
  /** The external names the store holds for this secret. */
  delivered: string[];
  /** The last failure's message ("" when the last job succeeded); shown as `last_error` (replsim's field name). */
  error: string;
}

/** A sync destination: an external store and how to reach it. */
export interface SyncDestination {
  /** `"<namespace><type>/<name>"`: destinations live in a namespace. */
  key: string;
  namespace: string;
  type: DestinationType;
  name: string;
  /** Connection parameters as given (shown obfuscated where sensitive). */
  connection: Record<string, string | string[]>;
  granularity: Granularity;
  secretNameTemplate: string;
  customTags: Record<string, string>;
  /**
   * The documented parameters the simulation has no use for (network allow-lists, role ARNs, KMS
   * keys, workload identity, app authentication …), as given: stored and read back under `options`.
   * Absent when none was given.
   */
  settings?: Record<string, unknown>;
  /** A DELETE with `purge=true` in progress: every association is being unsynced, then the destination goes. */
  purge: { initiatedAt: number; force: boolean; error: string } | null;
  associations: Record<string, SyncAssociation>;
}

/**
 * What a cluster stores of secret sync: its destinations with their associations. The external
 * stores are not here: they are the world's (`SimState.stores`), outside every cluster.
 */
export interface SyncState {
  destinations: Record<string, SyncDestination>;
  /** `sys/sync/config` as last patched; absent while it holds the defaults (never patched, or deleted). */
  config?: SyncConfig;
  /** The GitHub App registrations (`sys/sync/github-apps`), by name; absent while there is none. */
  githubApps?: Record<string, SyncGithubApp>;
}

/** The sync system's settings (`sys/sync/config`). */
export interface SyncConfig {
  disabled: boolean;
  queueCapacity: number;
}

/** One GitHub App a code host destination can authenticate as (`app_name`). */
export interface SyncGithubApp {
  name: string;
  appId: number;
  /** Kept as given; read back only as `"*****"`. */
  privateKey: string;
  /** SHA-256 of the key's public half (DER, base64), as GitHub shows a key's fingerprint. */
  fingerprint: string;
}
// ---------------------------------------------------------------------------------------------------
// Events

/** A destination's settings as a create or update stores them. */
export type DestinationSettings = Omit<SyncDestination, 'purge' | 'associations'>;

/** POST sys/sync/destinations/<type>/:name accepted: the destination is created or its settings replaced. */
export interface SyncDestinationConfigured extends BaseEvent {
  type: 'sync-destination-configured';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  destination: DestinationSettings;
}

/** DELETE of a destination that manages no association, or the end of a purge: it is gone. */
export interface SyncDestinationDeleted extends BaseEvent {
  type: 'sync-destination-deleted';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  destination: string;
}

/** DELETE with `purge=true` accepted: every linked association is removed (an unsync each); the destination goes once they are done. */
export interface SyncPurgeStarted extends BaseEvent {
  type: 'sync-destination-purge-started';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  destination: string;
  /** `force_delete`: an unsync that fails drops its association anyway. */
  force: boolean;
  /** The linked associations the purge unlinks, by id, each where the association machine moved it on `remove`. */
  unlinked: Record<string, AssociationValue>;
}

/** POST …/associations/set accepted: the secret is linked (or its link refreshed) and a sync queued. */
export interface SyncAssociationSet extends BaseEvent {
  type: 'sync-association-set';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  destination: string;
  association: { id: string; mount: string; accessor: string; secretName: string; granularity: Granularity; template: string };
  /** Where the association machine moved it on `set`. */
  value: AssociationValue;
}

/** POST …/associations/remove accepted for a linked secret: it is unlinked and an unsync queued. */
export interface SyncAssociationRemoved extends BaseEvent {
  type: 'sync-association-removed';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  destination: string;
  id: string;
  /** Where the association machine moved it on `remove`. */
  value: AssociationValue;
}

/**
 * Emitted by the sync process: a job for one association ran against the external store. On
 * success the store now holds the secret's current value (sync) or no longer holds it (unsync); on
 * failure nothing changed there and a retry is scheduled.
 */
export interface SyncAttempted extends BaseEvent {
  type: 'sync-attempted';
  cluster: string;
  destination: string;
  id: string;
  operation: 'sync' | 'unsync';
  outcome: 'succeeded' | 'failed';
  /** On failure: which side failed, and the message. */
  cause?: FailureCause;
  message?: string;
  /** Where the association machine moved the association on the outcome. */
  value: AssociationValue;
}

/**
 * The `destination-fault` fault: the external store behind a destination fails, or is healed
 * (`none`). The store is the world's; `cluster` is the one the step named it from.
 */
export interface SyncDestinationFaulted extends BaseEvent {
  type: 'sync-destination-faulted';
  cluster: string;
  /** The store's key: the destination's. */
  destination: string;
  fault: DestinationFault;
}

/** PATCH sys/sync/config accepted (the settings after it), or DELETE (`config` null: the defaults). */
export interface SyncConfigChanged extends BaseEvent {
  type: 'sync-config-changed';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  config: SyncConfig | null;
}

/** POST sys/sync/github-apps/:name accepted: registered or replaced. */
export interface SyncGithubAppWritten extends BaseEvent {
  type: 'sync-github-app-written';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  app: SyncGithubApp;
}

/** DELETE sys/sync/github-apps/:name accepted: the registration is gone. */
export interface SyncGithubAppDeleted extends BaseEvent {
  type: 'sync-github-app-deleted';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  name: string;
}

export type SyncEvent = SyncConfigChanged | SyncGithubAppWritten | SyncGithubAppDeleted | SyncDestinationConfigured | SyncDestinationDeleted | SyncPurgeStarted | SyncAssociationSet | SyncAssociationRemoved | SyncAttempted | SyncDestinationFaulted;

// The sync area's parts of the world state and its events, declared to the core (cluster/state.ts,
// cluster/events.ts), which names no area.
declare module '../core/state.js' {
  interface AreaClusterState {
    /** Secret sync (spec area D): destinations, their associations, and the simulated external stores behind them. */
    sync: SyncState;
  }
  interface AreaWorldState {
    /**
     * The external secret stores behind sync destinations, by destination key (`<namespace><type>/<name>`):
     * outside every cluster, so whichever cluster syncs to a destination writes the same store (src/areas/sync/README.md).
     */
    stores: Record<string, ExternalStore>;
  }
}
declare module '../core/events.js' {
  interface AreaEvents {
    sync: SyncEvent;
  }
}
