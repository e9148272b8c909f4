// Sync jobs on the bus's due-time queue (src/kernel/due.ts). An association's next job is a function
// of its cluster alone (`nextJob`: its status, its retry time, the secret's version in the mount) and
// of whether the cluster runs sync jobs (`runsSyncJobs`: running, no kind of secondary). So after
// each event the source looks at the clusters the event changed (all of them after a crash or a
// restart), and schedules each association's next job at its due time; when one falls due,
// `checkSyncJob` runs it if it is still the one owed then (else a later event scheduled the one that
// is), so nothing scans every association of every cluster after every event. The order: the earliest job, ties by cluster name, destination
// key and association id, after the reindexes ending at the same instant and before the bus's
// messages and checks. The network and the store decide each job's outcome when it runs.
import type { BusEffects, Checker, MessageSource } from '../../kernel/bus.js';
import { hasOwn } from '../../kernel/own.js';
import { changedClusters } from '../core/changed.js';
import type { SimEvent } from '../core/events.js';
import type { ClusterState, SimState } from '../core/state.js';
import { associationAfter, jobFailure, nextJob, runsSyncJobs } from './sync.js';
import type { SyncAttempted } from './types.js';

const PREFIX = 'sync-job';

/** Whether the cluster has any sync destination (most have none: then nothing is owed). */
function hasDestinations(c: ClusterState): boolean {
  for (const _ in c.sync.destinations) return true;
  return false;
}

/**
 * Schedules the next job of every association of the clusters an event changed. A job scheduled
 * already is one entry of the queue (the bus keeps one per key), so a cluster whose jobs the event
 * did not move schedules nothing new.
 */
export const syncJobSchedule: MessageSource<SimState, SimEvent> = (before, _event, after) => {
  // A crash or a restart changes whether a cluster runs jobs without changing the cluster.
  const names = before.network !== after.network ? after.clusters.names : changedClusters(before, after);
  let out: BusEffects | null = null;
  for (const name of names) {
    const c = after.clusters.named(name);
    if (!hasDestinations(c) || !runsSyncJobs(after, c)) continue;
    for (const [destination, d] of Object.entries(c.sync.destinations))
      for (const [id, a] of Object.entries(d.associations)) {
        const job = nextJob(c, a);
        if (!job) continue;
        out ??= { sent: [], delivered: [], timed: [] };
        out.timed!.push({ key: `${PREFIX}:${JSON.stringify([name, destination, id, job.at])}`, due: job.at, rank: ['sync', name, destination, id] });
      }
  }
  return out;
};

/** An association's job falls due: run it, if the cluster runs jobs and it is still the job owed at this time. */
export const checkSyncJob: Checker<SimState, SimEvent> = (state, key, at) => {
  const [name, destination, id, due] = JSON.parse(key.slice(PREFIX.length + 1)) as [string, string, string, number];
  if (!state.clusters.has(name)) return [];
  const c = state.clusters.named(name);
  if (!runsSyncJobs(state, c) || !hasOwn(c.sync.destinations, destination)) return [];
  const d = c.sync.destinations[destination];
  if (!hasOwn(d.associations, id)) return [];
  const a = d.associations[id];
  const job = nextJob(c, a);
  if (!job || job.at !== due) return [];
  const failure = jobFailure(state, c, destination, a, job.operation);
  const where = `${destination} ${id}`;
  const event: SyncAttempted = failure
    ? { type: 'sync-attempted', at, cluster: name, destination, id, operation: job.operation, outcome: 'failed', ...failure, value: associationAfter(a.value, { type: 'attempt.failed', cause: failure.cause }, where) }
    : { type: 'sync-attempted', at, cluster: name, destination, id, operation: job.operation, outcome: 'succeeded', value: associationAfter(a.value, { type: 'attempt.succeeded' }, where) };
  return [event];
};

export const syncCheckers = { [PREFIX]: checkSyncJob };
