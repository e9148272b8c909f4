// What secret sync sends over the bus (src/kernel/bus.ts): each sync job's push to (or removal from)
// the external store behind a destination, a network node of its own. The job runs and is answered
// within the event that records it (`sync-attempted`), one instant of the virtual clock, so the push
// is sent then and the network decides it then (bus.ts `callRefused`): delivered when the path to the
// store is up (whatever the store answered), dropped when it is cut (the job failed with no answer:
// UNKNOWN, retried later, as sync.ts `jobFailure` decides). It is not held across the partition as a
// WAL is: the association's status reads UNKNOWN while the path is cut and SYNCED once a retry after
// the heal gets through, as the service reports it. A job that failed inside the cluster (the secret's
// mount is not there) sends nothing.
import type { MessageSource } from '../../kernel/bus.js';
import type { SimEvent } from '../core/events.js';
import type { SimState } from '../core/state.js';

export const syncMessages: MessageSource<SimState, SimEvent> = (_before, event) => {
  if (event.type !== 'sync-attempted') return null;
  const e = event;
  if (e.outcome === 'failed' && e.cause === 'internal') return null;
  return {
    sent: [{ id: `sync-job:${e.cluster}>${e.destination}:${e.id}@${e.seq ?? 0}`, kind: 'sync-job', from: e.cluster, to: e.destination, sentAt: e.at, label: `${e.operation} ${e.id} → ${e.outcome}`, order: 0, now: true }],
    delivered: [],
  };
};
