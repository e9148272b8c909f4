// The world's state at any step of a run, without keeping a state per step: a state is kept every
// CHECKPOINT_EVENTS events (a checkpoint), and the state after event n is folded from the nearest
// checkpoint at or before n, with the events of the log. A run or a session of many steps thus
// keeps its log and a few states, not a state per step (each of which held its own copies of the
// paths a step changed: half of a serving session's growth per request).
//
// Step records read their `before` and `after` through `stateAt`; they are read in step order (the
// narration as each step ends, the report at the end), so the last states folded are kept and the
// next one is folded from them.
import { foldEvent } from '../check/catalogue.js';
import type { SimEvent } from '../areas/cluster/events.js';
import type { SimState } from '../areas/cluster/state.js';

/** Events between checkpoints: folding this many takes well under a millisecond. */
export const CHECKPOINT_EVENTS = 256;

export class Timeline {
  /** Checkpoints, by event count, in increasing order. */
  private readonly at: number[] = [];
  private readonly states: SimState[] = [];
  /** The states folded last, by event count (a few: before and after of the steps read last). */
  private readonly recent = new Map<number, SimState>();

  constructor(private readonly log: readonly SimEvent[]) {}

  /** Tells the timeline the state after the log's first `events` events; kept when a checkpoint is due. */
  note(events: number, state: SimState): void {
    const last = this.at.length === 0 ? -Infinity : this.at[this.at.length - 1];
    if (events - last < CHECKPOINT_EVENTS && this.at.length > 0) return;
    this.at.push(events);
    this.states.push(state);
  }

  /** The state after the log's first `events` events. */
  stateAt(events: number): SimState {
    const cached = this.recent.get(events);
    if (cached) return cached;
    // The nearest known state at or before: a recent one, or a checkpoint.
    let from = -1;
    let state: SimState | undefined;
    for (const [n, s] of this.recent) {
      if (n <= events && n > from) {
        from = n;
        state = s;
      }
    }
    let lo = 0;
    let hi = this.at.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] <= events) lo = mid + 1;
      else hi = mid - 1;
    }
    if (hi >= 0 && this.at[hi] > from) {
      from = this.at[hi];
      state = this.states[hi];
    }
    if (state === undefined) throw new RangeError(`no state is kept at or before event ${events}`);
    for (let i = from; i < events; i++) state = foldEvent(state, this.log[i]);
    this.recent.set(events, state);
    if (this.recent.size > 4) this.recent.delete(this.recent.keys().next().value as number);
    return state;
  }

  /**
   * Makes a record's `before` and `after` read from the timeline: the state after `beforeEvents`
   * and after `afterEvents` events (the record keeps the two counts, not the states).
   */
  attach(record: { before: SimState; after: SimState }, beforeEvents: number, afterEvents: number): void {
    Object.defineProperty(record, 'before', { get: () => this.stateAt(beforeEvents), enumerable: true, configurable: true });
    Object.defineProperty(record, 'after', { get: () => this.stateAt(afterEvents), enumerable: true, configurable: true });
  }
}
