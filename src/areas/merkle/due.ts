// The reindex's end on the bus's due-time queue (src/kernel/due.ts): when an event starts a reindex
// (`reindex-started`, which records its end), the source schedules timed work at that time; when it falls due,
// `checkReindex` ends it: finished on a running cluster, abandoned on a crashed one. Nothing scans
// every cluster after every event. The order: at one instant, reindexes end before sync jobs and before the bus's messages and
// checks, by cluster name.
import type { BusEffects, Checker, MessageSource } from '../../kernel/bus.js';
import { isUp } from '../../kernel/network.js';
import type { SimEvent } from '../core/events.js';
import type { SimState } from '../core/state.js';

const PREFIX = 'reindex';

/** Schedules the end of the reindex an event started (`reindex-started` records when it ends). */
export const merkleSchedule: MessageSource<SimState, SimEvent> = (before, event) => {
  if (event.type !== 'reindex-started') return null;
  // One already running to that end is scheduled already.
  if (before.clusters.get(event.cluster)?.merkle.reindexUntil === event.until) return null;
  return { sent: [], delivered: [], timed: [{ key: `${PREFIX}:${JSON.stringify([event.cluster, event.until])}`, due: event.until, rank: ['merkle', event.cluster] }] };
};

/** A reindex falls due: it ends, unless it is no longer the one running (nothing then). */
export const checkReindex: Checker<SimState, SimEvent> = (state, key, at) => {
  const [name, until] = JSON.parse(key.slice(PREFIX.length + 1)) as [string, number];
  if (!state.clusters.has(name) || state.clusters.named(name).merkle.reindexUntil !== until) return [];
  return [{ type: isUp(state.network, name) ? 'reindex-finished' : 'reindex-abandoned', at, cluster: name }];
};

export const merkleCheckers = { [PREFIX]: checkReindex };
