// One sync association: a KV-v2 secret linked to a sync destination, and the latest status of
// getting it there. The link follows the spec's association table (set links, set again refreshes,
// remove unlinks and starts an unsync); the status follows the sync jobs the world runs as time
// passes: queued (PENDING), delivered (SYNCED), removed from the destination (UNSYNCED), or failed
// with its cause (EXTERNAL_SERVICE_ERROR, CLIENT_SIDE_ERROR, INTERNAL_VAULT_ERROR, UNKNOWN) and
// retried. The service documents the four causes (developer.hashicorp.com/vault/docs/sync, "Sync
// statuses"); replsim gives each the situation it models: the store's service failed (external),
// it refused the configuration (client), the cluster could not read the secret it should send
// (internal: its mount is not on this cluster), or the store never answered, so the cluster cannot
// tell what the store holds (unknown: the network path to the store is cut).
//
// The world keeps the value as a plain string in its state and uses this machine as a pure
// transition function (`askAssociation`, models/ask.ts), as it does the replication role machine.
import { setup } from 'xstate';
import { ask, type Answer } from './ask.js';

/** An association as the world stores it: `<link>.<progress>`. */
export type AssociationValue =
  | 'unlinked.none'
  | 'unlinked.pending'
  | 'unlinked.failedExternal'
  | 'unlinked.failedClient'
  | 'unlinked.failedInternal'
  | 'unlinked.failedUnknown'
  | 'unlinked.unsynced'
  | 'linked.pending'
  | 'linked.synced'
  | 'linked.failedExternal'
  | 'linked.failedClient'
  | 'linked.failedInternal'
  | 'linked.failedUnknown';

/** The service's sync statuses that an association can report (vault-api-facts.md §D). */
export type SyncStatus = 'PENDING' | 'SYNCED' | 'UNSYNCED' | 'EXTERNAL_SERVICE_ERROR' | 'CLIENT_SIDE_ERROR' | 'INTERNAL_VAULT_ERROR' | 'UNKNOWN';

/**
 * Why an operation failed: the destination's service failed, it refused our credentials, the
 * cluster itself could not carry it out, or no answer came back.
 */
export type FailureCause = 'external' | 'client' | 'internal' | 'unknown';

export type AssociationEvent =
  /** The operator set the association (POST …/associations/set). */
  | { type: 'set' }
  /** The operator removed it (POST …/associations/remove). */
  | { type: 'remove' }
  /** The sync job delivered the secret, or deleted it from the destination for an unsync. */
  | { type: 'attempt.succeeded' }
  /** The sync job failed; the destination's answer gives the cause. */
  | { type: 'attempt.failed'; cause: FailureCause };

// While an unsync is in progress (queued or being retried), the job's outcome moves it on.
const unsyncInProgress = {
  on: {
    'attempt.succeeded': { target: '#syncAssociation.unlinked.unsynced' },
    'attempt.failed': [
      { guard: 'byExternalService', target: '#syncAssociation.unlinked.failedExternal' },
      { guard: 'byClientSide', target: '#syncAssociation.unlinked.failedClient' },
      { guard: 'byVault', target: '#syncAssociation.unlinked.failedInternal' },
      { guard: 'unanswered', target: '#syncAssociation.unlinked.failedUnknown' },
    ],
  },
} as const;

/*
 * Linked and unlinked, each with the progress of the operation that applies to it: a linked
 * secret is being synced (or is in sync), an unlinked one is being unsynced (or is gone). A
 * failure keeps the operation queued: the world retries it with backoff, and the next success
 * clears the failure. A job's outcome means nothing to a never-linked or already-unsynced
 * association, so the machine refuses it there.
 */
export const syncAssociationMachine = setup({
  types: {
    events: {} as AssociationEvent,
  },
  actions: {
    // The request succeeds with nothing to do; the action makes that an allowed transition.
    reportSuccess: () => {},
  },
  guards: {
    byExternalService: ({ event }) => event.type === 'attempt.failed' && event.cause === 'external',
    byClientSide: ({ event }) => event.type === 'attempt.failed' && event.cause === 'client',
    byVault: ({ event }) => event.type === 'attempt.failed' && event.cause === 'internal',
    unanswered: ({ event }) => event.type === 'attempt.failed' && event.cause === 'unknown',
  },
}).createMachine({
  id: 'syncAssociation',
  initial: 'unlinked',
  states: {
    unlinked: {
      initial: 'none',
      on: {
        // A sync is triggered.
        set: { target: 'linked.pending' },
        // Remove reports success when there is nothing to remove: nothing changes.
        remove: { actions: 'reportSuccess' },
      },
      states: {
        /** Never linked. */
        none: {},
        /** The unsync is queued. */
        pending: unsyncInProgress,
        failedExternal: unsyncInProgress,
        failedClient: unsyncInProgress,
        failedInternal: unsyncInProgress,
        failedUnknown: unsyncInProgress,
        /** The secret was deleted from the destination. */
        unsynced: {},
      },
    },
    linked: {
      initial: 'pending',
      on: {
        // A refresh without recreating the link: useful to retry a failed sync.
        set: { target: '.pending' },
        // The unsync deletes the secret from the external system.
        remove: { target: 'unlinked.pending' },
        'attempt.succeeded': { target: '.synced' },
        'attempt.failed': [
          { guard: 'byExternalService', target: '.failedExternal' },
          { guard: 'byClientSide', target: '.failedClient' },
          { guard: 'byVault', target: '.failedInternal' },
          { guard: 'unanswered', target: '.failedUnknown' },
        ],
      },
      states: {
        /** The sync is queued. */
        pending: {},
        /** The destination holds the secret as last synced. */
        synced: {},
        failedExternal: {},
        failedClient: {},
        failedInternal: {},
        failedUnknown: {},
      },
    },
  },
});

/** The machine's answer (models/ask.ts): the association's next value and the row's actions, or why it refused. */
export function askAssociation(value: AssociationValue, event: AssociationEvent): Answer {
  return ask(syncAssociationMachine, value, undefined, event);
}

/** The `sync_status` an association reports, or null for one that was never linked. */
export function syncStatusOf(value: AssociationValue): SyncStatus | null {
  switch (value) {
    case 'unlinked.none':
      return null;
    case 'unlinked.pending':
    case 'linked.pending':
      return 'PENDING';
    case 'linked.synced':
      return 'SYNCED';
    case 'unlinked.unsynced':
      return 'UNSYNCED';
    case 'unlinked.failedExternal':
    case 'linked.failedExternal':
      return 'EXTERNAL_SERVICE_ERROR';
    case 'unlinked.failedClient':
    case 'linked.failedClient':
      return 'CLIENT_SIDE_ERROR';
    case 'unlinked.failedInternal':
    case 'linked.failedInternal':
      return 'INTERNAL_VAULT_ERROR';
    case 'unlinked.failedUnknown':
    case 'linked.failedUnknown':
      return 'UNKNOWN';
  }
}

/** Whether the secret is linked to the destination. */
export function isLinked(value: AssociationValue): boolean {
  return value.startsWith('linked.');
}

const UNSYNC_IN_PROGRESS: AssociationValue[] = ['unlinked.pending', 'unlinked.failedExternal', 'unlinked.failedClient', 'unlinked.failedInternal', 'unlinked.failedUnknown'];
const SYNC_IN_PROGRESS: AssociationValue[] = ['linked.pending', 'linked.failedExternal', 'linked.failedClient', 'linked.failedInternal', 'linked.failedUnknown'];

/**
 * The operation the world still owes the destination for this association: a sync (queued or to
 * retry), an unsync, or none. A linked, synced secret needs a new sync only when its value changed,
 * which the world sees by comparing versions, not from this value.
 */
export function operationOf(value: AssociationValue): 'sync' | 'unsync' | null {
  if (SYNC_IN_PROGRESS.includes(value)) return 'sync';
  if (UNSYNC_IN_PROGRESS.includes(value)) return 'unsync';
  return null;
}

/** Whether the destination still manages this secret: linked, or unlinked with its unsync not done. */
export function isManaged(value: AssociationValue): boolean {
  return value !== 'unlinked.none' && value !== 'unlinked.unsynced';
}
