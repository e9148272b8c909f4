// What the invariant and hazard monitors report, and how they are built. A monitor only observes:
// it reads the world's state and log after each step and never changes them.
import type { SimEvent } from '../cluster/events.js';
import type { SimState } from '../cluster/state.js';
import type { HazardId, InvariantId } from '../scenario/schema.js';

export type { HazardId, InvariantId };

/** One thing a monitor saw: an invariant broken, or a hazard arising. */
export interface Finding {
  kind: 'violation' | 'hazard';
  id: InvariantId | HazardId;
  /** Virtual time it was seen at. */
  at: number;
  /** The clusters concerned. */
  clusters: string[];
  /** In plain words, for narration. */
  message: string;
  /** What it cost, for hazards that lose data: the keys a forced promotion lost. */
  lostKeys?: string[];
}

/** What a monitor is shown after each step: the state now, and the events the step appended. */
export interface Observation {
  state: SimState;
  /** The events appended since the previous observation, in order. */
  events: readonly SimEvent[];
  /** The state before those events. */
  before: SimState;
}

export interface Monitor {
  id: InvariantId | HazardId;
  kind: 'invariant' | 'hazard';
  /** What it checks, in the words of invariants.md. */
  description: string;
  /** New findings after a step. A hazard reports when it arises, not again while it lasts. */
  observe(o: Observation): Finding[];
}

/** Each run gets fresh monitors: some remember what they saw (what a cluster stored before a wipe). */
export type MonitorFactory = () => Monitor;
