// Secret sync on one cluster (spec area D): its destinations, the associations that link KV-v2
// secrets to them, and the simulated external store behind each destination. Requests change
// destinations and associations; the sync process delivers secrets as time passes, retries failed
// deliveries with a deterministic exponential backoff, re-syncs a secret whose value changed (one
// way, last write wins) and deletes it from the store on an unsync. The association machine
// (models/sync-association.machine.ts) is the authority on every association's link and status.
//
// Under replication (src/areas/sync/README.md): destinations and associations are replicated
// configuration, so every event that changes them advances the cluster's WAL and DR secondaries
// mirror them; a performance secondary reads a copy of its primary's and forwards writes to it;
// only a cluster that is neither kind of secondary runs sync jobs. The external stores are the
// world's, one per destination, reached over the simulated network.
import { modeOf } from '../../../models/replication-role.machine.js';
import { isManaged, operationOf, stepAssociation, type AssociationEvent, type AssociationValue, type FailureCause } from '../../../models/sync-association.machine.js';
import { DESTINATION_FAULTS, applyToStore, newExternalStore, storeAnswer, type DestinationFault, type ExternalStore } from './external-store.js';
import type { DestinationType, Granularity } from './destinations.js';
import { externalEntries, type NameFields } from './naming.js';
import type { BaseEvent } from '../../kernel/engine.js';
import { isUp, reachable } from '../../kernel/network.js';
import { own } from '../../kernel/own.js';
import { liveVersion } from '../cluster/reducers.js';
import { advancingWal } from './replicated-config.js';
import type { ClusterState, KvRecord, MountEntry, SimState, Storage } from '../cluster/state.js';
import type { TimedProcess } from '../cluster/timed.js';
import type { DestinationSettings, SyncAssociation, SyncAssociationRemoved, SyncAssociationSet, SyncAttempted, SyncDestination, SyncDestinationConfigured, SyncDestinationDeleted, SyncDestinationFaulted, SyncEvent, SyncPurgeStarted, SyncState } from './types.js';
import { recordAt } from '../cluster/keymap.js';
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

/** The wait before the retry that follows the `failures`-th failure in a row. No jitter: runs must replay. */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}


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
  return { destinations };
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
// Reducers

/** Moves an association by the machine; an event the machine refuses means the log is inconsistent. */
function move(a: SyncAssociation, event: AssociationEvent, where: string): void {
  const next = stepAssociation(a.value, event);
  if (next === null) throw new Error(`sync log is inconsistent: association ${where} cannot go from ${a.value} on ${event.type}`);
  a.value = next;
}

/** Queues the operation the association's new value calls for. */
function queue(a: SyncAssociation, at: number): void {
  a.failures = 0;
  a.dueAt = at + SYNC_DELAY_MS;
  a.updatedAt = at;
  a.error = '';
}

/** Ends a purge when nothing is left to unsync: the destination and its associations go. */
function finishPurge(c: ClusterState, key: string): void {
  const d = c.sync.destinations[key];
  if (d?.purge && !Object.values(d.associations).some((a) => isManaged(a.value))) delete c.sync.destinations[key];
}

/** The world's store behind a destination key, made when first needed (an immer draft). */
function storeFor(d: SimState, key: string): ExternalStore {
  return (d.stores[key] ??= newExternalStore());
}

// Every event that lands on a cluster changes its replicated configuration: advancingWal.
const clusterReducers = advancingWal({
  'sync-destination-configured': (d: SimState, e: SyncDestinationConfigured) => {
    const c = d.clusters[e.cluster];
    const prev = c.sync.destinations[e.destination.key];
    c.sync.destinations[e.destination.key] = { ...e.destination, purge: prev?.purge ?? null, associations: prev?.associations ?? {} };
    storeFor(d, e.destination.key);
  },
  'sync-destination-deleted': (d: SimState, e: SyncDestinationDeleted) => {
    delete d.clusters[e.cluster].sync.destinations[e.destination];
  },
  'sync-destination-purge-started': (d: SimState, e: SyncPurgeStarted) => {
    const c = d.clusters[e.cluster];
    const dest = c.sync.destinations[e.destination];
    dest.purge = { initiatedAt: e.at, force: e.force, error: '' };
    for (const [id, a] of Object.entries(dest.associations)) {
      if (!a.value.startsWith('linked.')) continue;
      move(a, { type: 'remove' }, `${e.destination} ${id}`);
      queue(a, e.at);
    }
    finishPurge(c, e.destination);
  },
  'sync-association-set': (d: SimState, e: SyncAssociationSet) => {
    const dest = d.clusters[e.cluster].sync.destinations[e.destination];
    const { id, ...fields } = e.association;
    const prev = dest.associations[id];
    const a: SyncAssociation = prev ?? { ...fields, value: 'unlinked.none', updatedAt: e.at, failures: 0, dueAt: null, source: '', delivered: [], error: '' };
    Object.assign(a, fields);
    move(a, { type: 'set' }, `${e.destination} ${id}`);
    queue(a, e.at);
    dest.associations[id] = a;
  },
  'sync-association-removed': (d: SimState, e: SyncAssociationRemoved) => {
    const a = d.clusters[e.cluster].sync.destinations[e.destination].associations[e.id];
    move(a, { type: 'remove' }, `${e.destination} ${e.id}`);
    queue(a, e.at);
  },
  'sync-attempted': (d: SimState, e: SyncAttempted) => {
    const c = d.clusters[e.cluster];
    const dest = c.sync.destinations[e.destination];
    const a = dest.associations[e.id];
    const where = `${e.destination} ${e.id}`;
    a.updatedAt = e.at;
    if (e.outcome === 'failed') {
      move(a, { type: 'attempt.failed', cause: e.cause ?? 'external' }, where);
      a.failures += 1;
      a.dueAt = e.at + retryDelayMs(a.failures);
      a.error = e.message ?? '';
      if (dest.purge && e.operation === 'unsync') {
        dest.purge.error = `failed to unsync ${a.secretName} from mount ${a.mount}: ${a.error}`;
        // force_delete: the association goes even though its secret may remain in the store.
        if (dest.purge.force) delete dest.associations[e.id];
        finishPurge(c, e.destination);
      }
      return;
    }
    move(a, { type: 'attempt.succeeded' }, where);
    const store = storeFor(d, e.destination);
    if (e.operation === 'sync') {
      const source = sourceOf(c, a);
      const wanted = externalEntries(dest.type, a.granularity, a.template, nameFieldsOf(c, dest, a), source?.data ?? null);
      applyToStore(store, a.delivered, wanted, e.cluster);
      a.delivered = Object.keys(wanted);
      a.source = source?.version ?? 'none';
    } else {
      applyToStore(store, a.delivered, {}, e.cluster);
      a.delivered = [];
      a.source = '';
    }
    a.failures = 0;
    a.dueAt = null;
    a.error = '';
    finishPurge(c, e.destination);
  },
});

export const syncReducers = {
  ...clusterReducers,
  // A fault of the store, outside every cluster: no cluster's WAL moves.
  'sync-destination-faulted': (d: SimState, e: SyncDestinationFaulted) => {
    storeFor(d, e.destination).fault = e.fault;
  },
};

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

/** Whether a cluster runs sync jobs: a running cluster that is no kind of secondary (the active primary, or a standalone one). */
export function runsSyncJobs(state: SimState, c: ClusterState): boolean {
  return isUp(state.network, c.name) && modeOf(c.replication.dr.role) !== 'secondary' && modeOf(c.replication.performance.role) !== 'secondary';
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

/**
 * Runs sync jobs as time passes: for every cluster that runs them (`runsSyncJobs`), the earliest
 * job owed by any association. The network and the store decide the outcome.
 */
export const syncProcess: TimedProcess = (state: SimState) => {
  let next: { at: number; events: SyncAttempted[] } | null = null;
  for (const name of Object.keys(state.clusters).sort()) {
    const c = state.clusters[name];
    if (!runsSyncJobs(state, c)) continue;
    for (const key of Object.keys(c.sync.destinations).sort()) {
      const dest = c.sync.destinations[key];
      for (const id of Object.keys(dest.associations).sort()) {
        const a = dest.associations[id];
        const job = nextJob(c, a);
        if (!job || (next && job.at >= next.at)) continue;
        const failure = jobFailure(state, c, key, a, job.operation);
        const event: SyncAttempted = failure
          ? { type: 'sync-attempted', at: job.at, cluster: name, destination: key, id, operation: job.operation, outcome: 'failed', ...failure }
          : { type: 'sync-attempted', at: job.at, cluster: name, destination: key, id, operation: job.operation, outcome: 'succeeded' };
        next = { at: job.at, events: [event] };
      }
    }
  }
  return next;
};

export const syncProcesses: TimedProcess[] = [syncProcess];
