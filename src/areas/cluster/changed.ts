// Which clusters an event changed: the clusters whose object differs before and after it (the state is
// immutable, so a cluster no reducer touched is the same object). The sources that schedule timed
// work on the bus's due-time queue (merkle's reindex, sync's jobs) look only at these, so their cost
// per event grows with what the event changed (issue #15). One identity comparison per cluster, done
// once per event whichever source asks first.
import type { SimState } from './state.js';

const NONE: readonly string[] = Object.freeze([]);
/** The last answer, by the `clusters` record after the event (the record before it is checked too). */
let last: { before: SimState['clusters']; after: SimState['clusters']; names: readonly string[] } | null = null;

/** The names of the clusters the event changed or added, in the record's order. */
export function changedClusters(before: SimState, after: SimState): readonly string[] {
  if (before.clusters === after.clusters) return NONE;
  if (last && last.before === before.clusters && last.after === after.clusters) return last.names;
  const names: string[] = [];
  for (const name in after.clusters) if (before.clusters[name] !== after.clusters[name]) names.push(name);
  last = { before: before.clusters, after: after.clusters, names };
  return names;
}
