// How secret sync's events change the world state (evolve). Every association moves to where its
// event says the association machine moved it (models/sync-association.machine.ts, asked by the
// handler or the sync process that made the event): the reducers never ask it again. Requests set and remove associations and configure
// destinations; the sync process's attempts deliver to (or delete from) the external store behind
// the destination. Every event that lands on a cluster changes its replicated configuration and
// advances its WAL (onReplicatedCluster); a store's fault lands on no cluster. The external stores
// are the world's, outside every cluster: an event that changes one also sets `stores`.
import { produce } from 'immer';
import { isManaged, type AssociationValue } from '../../../models/sync-association.machine.js';
import type { ClusterState, SimState } from '../core/state.js';
import { editCluster, onReplicatedCluster } from '../core/reduce.js';
import { writeWal } from '../core/touched.js';
import { NOTHING, type Answer, type Touch } from '../../kernel/engine.js';
import type { SimReducers } from '../sim-area.js';
import { applyToStore, newExternalStore, type ExternalStore } from './external-store.js';
import { externalEntries } from './naming.js';
import { nameFieldsOf, retryDelayMs, sourceOf, SYNC_DELAY_MS } from './sync.js';
import type {
  SyncConfigChanged,
  SyncGithubAppDeleted,
  SyncGithubAppWritten,
  SyncAssociation,
  SyncAssociationRemoved,
  SyncAssociationSet,
  SyncAttempted,
  SyncDestinationConfigured,
  SyncDestinationDeleted,
  SyncDestinationFaulted,
  SyncPurgeStarted,
} from './types.js';

/** Moves an association to the value its event recorded (a history written before events recorded it does not replay). */
function move(a: SyncAssociation, value: AssociationValue | undefined, where: string): void {
  if (typeof value !== 'string') throw new Error(`sync log is inconsistent: the event moving association ${where} records no value (a history of an older replsim?)`);
  a.value = value;
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

/** The world's stores with the one behind a destination key edited (made when first needed): the same record when nothing changed. */
function editStore(stores: SimState['stores'], key: string, edit: (store: ExternalStore) => void): SimState['stores'] {
  return produce(stores, (st) => {
    edit((st[key] ??= newExternalStore()));
  });
}

/** A reducer's answer: the clusters and the stores, each where it changed. */
function changed(s: SimState, clusters: SimState['clusters'], stores: SimState['stores'], touched: readonly Touch[] = NOTHING): Answer<SimState> | null {
  if (clusters === s.clusters && stores === s.stores) return null;
  return { ...(clusters !== s.clusters ? { clusters, touched } : {}), ...(stores !== s.stores ? { stores } : {}) };
}

export const syncReducers = {
  'sync-config-changed': onReplicatedCluster((c, e: SyncConfigChanged) => {
    const sync = c.sync;
    if (e.config) sync.config = e.config;
    else delete sync.config;
  }),
  'sync-github-app-written': onReplicatedCluster((c, e: SyncGithubAppWritten) => {
    const sync = c.sync;
    (sync.githubApps ??= {})[e.app.name] = e.app;
  }),
  'sync-github-app-deleted': onReplicatedCluster((c, e: SyncGithubAppDeleted) => {
    const sync = c.sync;
    if (!sync.githubApps) return;
    delete sync.githubApps[e.name];
    if (Object.keys(sync.githubApps).length === 0) delete sync.githubApps;
  }),
  'sync-destination-configured': (s, e: SyncDestinationConfigured) => {
    const touched: Touch[] = [];
    const clusters = editCluster(s.clusters, e.cluster, (c) => {
      const prev = c.sync.destinations[e.destination.key];
      c.sync.destinations[e.destination.key] = { ...e.destination, purge: prev?.purge ?? null, associations: prev?.associations ?? {} };
      writeWal(c, e.at, touched);
    });
    // The store behind it exists from now on.
    return changed(s, clusters, editStore(s.stores, e.destination.key, () => {}), touched);
  },
  'sync-destination-deleted': onReplicatedCluster((c, e: SyncDestinationDeleted) => {
    delete c.sync.destinations[e.destination];
  }),
  'sync-destination-purge-started': onReplicatedCluster((c, e: SyncPurgeStarted) => {
    const dest = c.sync.destinations[e.destination];
    dest.purge = { initiatedAt: e.at, force: e.force, error: '' };
    if (typeof e.unlinked !== 'object' || e.unlinked === null) throw new Error(`sync log is inconsistent: the purge of ${e.destination} records no associations it unlinks (a history of an older replsim?)`);
    for (const [id, value] of Object.entries(e.unlinked)) {
      const a = dest.associations[id];
      move(a, value, `${e.destination} ${id}`);
      queue(a, e.at);
    }
    finishPurge(c, e.destination);
  }),
  'sync-association-set': onReplicatedCluster((c, e: SyncAssociationSet) => {
    const dest = c.sync.destinations[e.destination];
    const { id, ...fields } = e.association;
    const prev = dest.associations[id];
    const a: SyncAssociation = prev ?? { ...fields, value: 'unlinked.none', updatedAt: e.at, failures: 0, dueAt: null, source: '', delivered: [], error: '' };
    Object.assign(a, fields);
    move(a, e.value, `${e.destination} ${id}`);
    queue(a, e.at);
    dest.associations[id] = a;
  }),
  'sync-association-removed': onReplicatedCluster((c, e: SyncAssociationRemoved) => {
    const a = c.sync.destinations[e.destination].associations[e.id];
    move(a, e.value, `${e.destination} ${e.id}`);
    queue(a, e.at);
  }),
  'sync-attempted': (s, e: SyncAttempted) => {
    let toStore: ((store: ExternalStore) => void) | null = null;
    const touched: Touch[] = [];
    const clusters = editCluster(s.clusters, e.cluster, (c) => {
      attempted(c, e, (edit) => void (toStore = edit));
      writeWal(c, e.at, touched);
    });
    // Edited after the cluster's draft is finished: a `produce` inside another's recipe does not freeze what it makes.
    return changed(s, clusters, toStore ? editStore(s.stores, e.destination, toStore) : s.stores, touched);
  },
  // A fault of the store, outside every cluster: no cluster's WAL moves.
  'sync-destination-faulted': (s, e: SyncDestinationFaulted) =>
    changed(
      s,
      s.clusters,
      editStore(s.stores, e.destination, (store) => {
        store.fault = e.fault;
      }),
    ),
} satisfies SimReducers;

/** A sync or unsync attempt on a draft of the cluster; `toStore` is handed the edit of the store behind the destination (the attempt reached it), which reads nothing of the draft. */
function attempted(c: ClusterState, e: SyncAttempted, toStore: (edit: (store: ExternalStore) => void) => void): void {
  const dest = c.sync.destinations[e.destination];
  const a = dest.associations[e.id];
  const where = `${e.destination} ${e.id}`;
  a.updatedAt = e.at;
  if (e.outcome === 'failed') {
    move(a, e.value, where);
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
  move(a, e.value, where);
  const remove = [...a.delivered];
  if (e.operation === 'sync') {
    const source = sourceOf(c, a);
    const wanted = externalEntries(dest.type, a.granularity, a.template, nameFieldsOf(c, dest, a), source?.data ?? null);
    toStore((store) => applyToStore(store, remove, wanted, e.cluster));
    a.delivered = Object.keys(wanted);
    a.source = source?.version ?? 'none';
  } else {
    toStore((store) => applyToStore(store, remove, {}, e.cluster));
    a.delivered = [];
    a.source = '';
  }
  a.failures = 0;
  a.dueAt = null;
  a.error = '';
  finishPurge(c, e.destination);
}
