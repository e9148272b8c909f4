// The world's state at any step of a run, without keeping a state per step: a state is kept every
// CHECKPOINT_EVENTS events (a checkpoint), and the state after event n is folded from the nearest
// checkpoint at or before n, with the events of the log. A run or a session of many steps thus
// keeps its log and a few states, not a state per step (each of which held its own copies of the
// paths a step changed: half of a serving session's growth per request).
//
// Step records read their `before` and `after` through `stateAt`, mostly in step order (narration as
// each step ends), so the last states folded are kept and the next one is folded from them.
import { foldEvent } from '../check/catalogue.js';
import type { SimEvent } from '../areas/core/events.js';
import type { SimState } from '../areas/core/state.js';
import { stepPicture, type StepPicture } from './picture.js';

/**
 * Events between checkpoints. A step's states are read back seldom (narration reads each as its step
 * ends, from the states folded last; the report draws from the pictures the run took: picture.ts), so
 * checkpoints are far apart: each keeps the parts of the state changed since the one before (6 MB in
 * all for a 100,000-write run, against 18 MB every 1,024), and reaching a step's state folds up to
 * this many events, some tens of milliseconds.
 */
export const CHECKPOINT_EVENTS = 8192;

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

  /** The checkpoint kept after exactly `events` events, if one was. */
  checkpointAt(events: number): SimState | undefined {
    const i = this.lastCheckpointBy(events);
    return i >= 0 && this.at[i] === events ? this.states[i] : undefined;
  }

  /** The index of the last checkpoint kept after at most `events` events (-1 when none is). */
  private lastCheckpointBy(events: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] <= events) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi;
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
    const hi = this.lastCheckpointBy(events);
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
   * A timeline over `log` with this one's checkpoints: `log` must begin with the events this one
   * was told of (a world rebuilt from them, whose log goes on growing).
   */
  over(log: readonly SimEvent[]): Timeline {
    const t = new Timeline(log);
    t.at.push(...this.at);
    t.states.push(...this.states);
    return t;
  }

  /** The log's events from `from` (counted from 0) up to `to`, excluded. */
  eventsBetween(from: number, to: number): SimEvent[] {
    return this.log.slice(from, to);
  }

  /**
   * Keeps a step that took the log from `beforeEvents` to `afterEvents` events and left `state`:
   * its picture taken while its states are at hand (picture.ts), a checkpoint noted when one is due,
   * and the record returned as `attach` makes it.
   */
  keep<R extends { before: SimState; after: SimState; events: SimEvent[]; picture?: StepPicture }>(record: R, beforeEvents: number, afterEvents: number, state: SimState): R {
    record.picture = stepPicture(record.before, record.after);
    this.note(afterEvents, state);
    return this.attach(record, beforeEvents, afterEvents);
  }

  /**
   * The record with its `before`, `after` and `events` read from the timeline: the state after
   * `beforeEvents` and after `afterEvents` events, and the log's events between. The record returned
   * is a copy of the given one that keeps the two counts, not the states nor the events, and reads
   * them through getters of its prototype (one prototype per timeline): defining them on each record
   * turned it into a dictionary of properties: 3.6 KB a record, against 1.5 KB so.
   */
  attach<R extends { before: SimState; after: SimState; events: SimEvent[] }>(record: R, beforeEvents: number, afterEvents: number): R {
    const out = Object.create(this.stepPrototype) as R & Counts;
    for (const key of Object.keys(record)) {
      if (key === 'before' || key === 'after' || key === 'events') continue;
      const value = (record as unknown as Record<string, unknown>)[key];
      // Most steps save nothing: their empty `saved` and `savedFrom` become one shared frozen object.
      (out as unknown as Record<string, unknown>)[key] = (key === 'saved' || key === 'savedFrom') && isEmptyObject(value) ? NOTHING : value;
    }
    out[FROM] = beforeEvents;
    out[TO] = afterEvents;
    return out;
  }

  /** The two event counts a record of this timeline reads its states from; undefined for any other record. */
  countsOf(record: object): [number, number] | undefined {
    if (Object.getPrototypeOf(record) !== this.stepPrototype) return undefined;
    const c = record as Counts;
    return [c[FROM], c[TO]];
  }

  private readonly stepPrototype: object = stepPrototype(this);
}

const NOTHING: Record<string, never> = Object.freeze({});

function isEmptyObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  for (const _ in v) return false;
  return true;
}

const FROM = Symbol('events before the step');
const TO = Symbol('events after the step');
interface Counts {
  [FROM]: number;
  [TO]: number;
}

/** The getters a timeline's step records read their states and events through. */
function stepPrototype(timeline: Timeline): object {
  return Object.create(Object.prototype, {
    before: {
      get(this: Counts) {
        return timeline.stateAt(this[FROM]);
      },
      enumerable: true,
    },
    after: {
      get(this: Counts) {
        return timeline.stateAt(this[TO]);
      },
      enumerable: true,
    },
    events: {
      get(this: Counts) {
        return timeline.eventsBetween(this[FROM], this[TO]);
      },
      enumerable: true,
    },
  });
}
