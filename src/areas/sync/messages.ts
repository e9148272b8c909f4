// What secret sync sends over the bus (src/kernel/bus.ts): each sync job's push to (or removal from)
// the external store behind a destination, a network node of its own. The job runs and is answered
// within the event that records it (`sync-attempted`), so it is sent and delivered at that time.
import type { MessageSource } from '../../kernel/bus.js';
import type { SimEvent } from '../cluster/events.js';
import type { SimState } from '../cluster/state.js';

export const syncMessages: MessageSource<SimState, SimEvent> = (_before, event) => {
  if (event.type !== 'sync-attempted') return null;
  const e = event;
  return {
    sent: [{ id: `sync-job:${e.cluster}>${e.destination}:${e.id}@${e.seq ?? 0}`, kind: 'sync-job', from: e.cluster, to: e.destination, sentAt: e.at, label: `${e.operation} ${e.id} → ${e.outcome}`, order: 0, now: true }],
    delivered: [],
  };
};
