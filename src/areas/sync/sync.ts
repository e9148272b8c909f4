// Secret sync on one cluster (spec area D): its destinations, the associations that link KV-v2
// secrets to them, and the simulated external store behind each destination. Requests change
// destinations and associations; the sync process delivers secrets as time passes, retries failed
// deliveries with a deterministic exponential backoff, re-syncs a secret whose value changed (one
// way, last write wins) and deletes it from the store on an unsync. The association machine
// (models/sync-association.machine.ts) is the authority on every association's link and status;
// evolve.ts applies its transitions (the reducers).
//
// Under replication (src/areas/sync/README.md): destinations and associations are replicated
// configuration, so every event that changes them advances the cluster's WAL and DR secondaries
// mirror them; a performance secondary reads a copy of its primary's and forwards writes to it;
// only a cluster that is neither kind of secondary runs sync jobs. The external stores are the
// world's, one per destination, reached over the simulated network.
import { modeOf } from '../../../models/replication-role.machine.js';
import { askAssociation, operationOf, type AssociationEvent, type AssociationValue, type FailureCause } from '../../../models/sync-association.machine.js';
import { syncRuns, type SyncConfigValue } from '../../../models/sync-config.machine.js';
import { DESTINATION_FAULTS, storeAnswer, type DestinationFault } from './external-store.js';
import type { DestinationType, Granularity } from './destinations.js';
import type { NameFields } from './naming.js';
import type { BaseEvent } from '../../kernel/engine.js';
import { isUp, reachable } from '../../kernel/network.js';
import { own } from '../../kernel/own.js';
import { liveVersion } from '../core/versions.js';
import type { ClusterState, KvRecord, MountEntry, SimState, Storage } from '../core/state.js';
import type { DestinationSettings, SyncAssociation, SyncDestination, SyncEvent, SyncState } from './types.js';
import { recordAt } from '../core/keymap.js';
export type * from './types.js';

// Timing of sync jobs, in simulated time. The service says only that it "propagates modifications
// into the proper destinations automatically in a handful of seconds" and that failed operations
// are retried with exponential backoff; these constants are the simulator's.
/** From a set, a remove or a change of the secret to the job that carries it out. */
export const SYNC_DELAY_MS = 2_000;
/** The wait before the first retry of a failed job; each further failure doubles it. */
export const RETRY_BASE_MS = 5_000;
/** The longest wait between two retries. */
export const RETRY_MAX_MS = 5 * 60_000;

/**
 * Where the association machine moves an association on `event`: what the event records, and its
 * reducer applies. `where` names the association; the callers ask only where the table has a row
 * (set and remove in every state, a job's outcome while an operation is owed), so a refusal is a
 * bug of the caller.
 */
export function associationAfter(value: AssociationValue, event: AssociationEvent, where: string): AssociationValue {
  const answer = askAssociation(value, event);
  if ('refused' in answer) throw new Error(`the sync association machine refused ${event.type} in ${value} (association ${where})`);
  return answer.next as AssociationValue;
}

/** The wait before the retry that follows the `failures`-th failure in a row. No jitter: runs must replay. */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

/** A cluster's sync state before any destination: none. */
export function emptySyncState(): SyncState {
  return { destinations: {} };
}

/**
 * What a performance secondary holds of its primary's sync configuration: the destinations of the
 * namespaces it receives (the root namespace, and those its paths filter lets through). It reads
 * them; writes go to the primary, and only the primary runs their jobs.
 */
export function syncStateForPerformanceSecondary(primary: SyncState, secondaryStorage: Storage): SyncState {
  const destinations: Record<string, SyncDestination> = {};
  for (const [key, d] of Object.entries(primary.destinations)) if (d.namespace === '' || d.namespace in secondaryStorage.namespaces) destinations[key] = d;
  return { destinations, ...(primary.config ? { config: primary.config } : {}), ...(primary.githubApps ? { githubApps: primary.githubApps } : {}) };
}

export function destinationKey(namespace: string, type: string, name: string): string {
  return `${namespace}${type}/${name}`;
}

export function associationId(accessor: string, secretName: string): string {
  return `${accessor}/${secretName}`;
}


// ---------------------------------------------------------------------------------------------------
// Reading a cluster

/** The mount an association reads from, if it is still there (same path, same accessor). */
export function mountOfAssociation(c: ClusterState, a: Pick<SyncAssociation, 'mount' | 'accessor'>): MountEntry | null {
  const m = c.storage.mounts[a.mount];
  return m && m.accessor === a.accessor ? m : null;
}

/** The secret as the association's mount holds it now: its version tag and live data (null when deleted). */
export function sourceOf(c: ClusterState, a: SyncAssociation): { version: string; data: Record<string, unknown> | null; record: KvRecord | undefined } | null {
  if (!mountOfAssociation(c, a)) return null;
  const record = recordAt(own(c.storage.kv, a.mount), a.secretName);
  const live = liveVersion(record);
  return live && record ? { version: `v${live.version}@${record.updatedAt}`, data: live.data, record } : { version: 'none', data: null, record };
}

/** The template fields of one association's secret. */
export function nameFieldsOf(c: ClusterState, d: Pick<SyncDestination, 'type' | 'name' | 'namespace'>, a: Pick<SyncAssociation, 'mount' | 'accessor' | 'secretName'>): NameFields {
  const ns = d.namespace;
  const relMount = a.mount.slice(ns.length).replace(/\/$/, '');
  const nsBase = ns.replace(/\/$/, '').split('/').pop() ?? '';
  return {
    DestinationType: d.type,
    DestinationName: d.name,
    NamespacePath: ns,
    NamespaceBaseName: nsBase,
    NamespaceID: ns === '' ? 'root' : (c.storage.namespaces[ns]?.id ?? ''),
    MountPath: relMount,
    MountBaseName: relMount.split('/').pop() ?? '',
    MountAccessor: a.accessor,
    SecretPath: a.secretName,
    SecretBaseName: a.secretName.split('/').pop() ?? '',
  };
}

/** The destination the `destination-fault` step names: by type and name, in the root namespace or `ns/name`. */
export function destinationForFault(c: ClusterState, type: string, name: string): SyncDestination | { problem: string } {
  const slash = name.lastIndexOf('/');
  const namespace = slash >= 0 ? name.slice(0, slash + 1) : '';
  const bare = slash >= 0 ? name.slice(slash + 1) : name;
  const key = destinationKey(namespace, type, bare);
  const found = c.sync.destinations[key];
  if (found) return found;
  const known = Object.keys(c.sync.destinations).sort();
  return {
    problem: `destination-fault: cluster "${c.name}" has no sync destination ${key}${known.length ? ` (its destinations: ${known.join(', ')})` : ' (it has none: create one with POST sys/sync/destinations/<type>/<name> first)'}`,
  };
}

export function isDestinationFault(f: string): f is DestinationFault {
  return (DESTINATION_FAULTS as readonly string[]).includes(f);
}

// ---------------------------------------------------------------------------------------------------
// The sync process

/** When this association's next job falls due, and which, or null when nothing is owed. */
export function nextJob(c: ClusterState, a: SyncAssociation): { at: number; operation: 'sync' | 'unsync' } | null {
  const op = operationOf(a.value);
  if (op !== null && a.dueAt !== null) return { at: a.dueAt, operation: op };
  if (a.value !== 'linked.synced') return null;
  const source = sourceOf(c, a);
  if (!source || source.version === a.source) return null;
  // A changed (or deleted) secret is carried over a moment after the change; a deletion of every
  // version leaves no record, so the cluster's last write stands in for its time.
  const changedAt = source.record ? source.record.updatedAt : c.wal.lastAt;
  return { at: Math.max(changedAt, a.updatedAt) + SYNC_DELAY_MS, operation: 'sync' };
}

/** The documented defaults of `sys/sync/config`. */
export const SYNC_CONFIG_DEFAULTS = { disabled: false, queueCapacity: 1_000_000 } as const;

/** The sync-config machine's value for a cluster's settings. */
export function syncConfigValue(sync: SyncState): SyncConfigValue {
  return sync.config?.disabled ? 'disabled' : 'enabled';
}

/**
 * Whether a cluster runs sync jobs: a running cluster that is no kind of secondary (the active
 * primary, or a standalone one) whose sync system is not disabled (the sync-config machine); while
 * it is, operations stay queued (PENDING) and run once it is enabled again.
 */
export function runsSyncJobs(state: SimState, c: ClusterState): boolean {
  return isUp(state.network, c.name) && modeOf(c.replication.dr.role) !== 'secondary' && modeOf(c.replication.performance.role) !== 'secondary' && syncRuns(syncConfigValue(c.sync));
}

/** How many operations the cluster's sync queue holds: the associations with one pending. */
export function pendingOperations(sync: SyncState): number {
  let n = 0;
  for (const d of Object.values(sync.destinations)) for (const a of Object.values(d.associations)) if (operationOf(a.value) !== null) n++;
  return n;
}

/**
 * How a job of this cluster for this association ends: failed with a cause and a message, or null
 * when the store accepts it. In the order the work goes: read the secret (a sync), reach the store
 * over the network, then the store's own answer. Messages are the simulator's wording: the
 * service's error codes are not public.
 */
export function jobFailure(state: SimState, c: ClusterState, key: string, a: SyncAssociation, operation: 'sync' | 'unsync'): { cause: FailureCause; message: string } | null {
  // The secret to send is read from its mount; a mount this cluster does not hold (a promoted
  // performance secondary whose paths filter kept it out) fails inside the cluster.
  if (operation === 'sync' && !mountOfAssociation(c, a))
    return { cause: 'internal', message: `cannot read secret ${a.secretName}: mount ${a.mount} (accessor ${a.accessor}) is not mounted on this cluster` };
  // No answer over a cut path: the cluster cannot tell whether the store applied the operation.
  if (!reachable(state.network, c.name, key)) return { cause: 'unknown', message: `no answer from the external service of destination ${key}: the network path from ${c.name} is cut` };
  const answer = storeAnswer(state.stores[key], key);
  return answer.ok ? null : { cause: answer.cause, message: answer.message };
}
