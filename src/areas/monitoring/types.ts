// What the invariant and hazard monitors report, and how they are built. A monitor only observes:
// it reads the world's state and log after each step and never changes them.
import type { BusMessage } from '../../kernel/bus.js';
import type { ApiResponse } from '../../kernel/http/http.js';
import type { SimEvent } from '../core/events.js';
import type { SimState } from '../core/state.js';
import type { HazardId, InvariantId } from '../core/vocabulary.js';

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

/**
 * A client request as the monitors see it. The client token is left out on purpose: no monitor
 * needs it, and a recorded token is a secret (callers may pass a label in its place).
 */
export interface ObservedRequest {
  method: string;
  /** As the client sent it (relative to `namespace`, maybe with `/v1/` or a query string). */
  path: string;
  body?: unknown;
  namespace?: string;
}

/** One request a cluster answered during the step, with the state just before and just after it. */
export interface ResponseObservation {
  cluster: string;
  request: ObservedRequest;
  response: ApiResponse;
  /** The world's state just before the request (what the handler saw). */
  before: SimState;
  /** The world's state just after it (its events applied). */
  after: SimState;
  /** How many of the observation's `events` had been appended when the answer came: the request's own are the last of them. */
  eventIndex: number;
}

/** What a monitor is shown after each step: the state now, and the events the step appended. */
export interface Observation {
  state: SimState;
  /** The events appended since the previous observation, in order. */
  events: readonly SimEvent[];
  /** The state before those events. */
  before: SimState;
  /**
   * The state right after each event (`states[i]` follows `events[i]`), when the watch recorded
   * them as they were appended. Read them through `stateBefore` / `stateAfter` (observe.ts), which
   * fold the events again when this is absent (an observation built by hand in a test).
   */
  states?: readonly SimState[];
  /** The requests answered during the step, when the caller reported them (`Watch.observeResponse`). */
  responses?: readonly ResponseObservation[];
  /**
   * The messages of the bus between the clusters that were in flight during the step: those still in
   * flight, and those delivered or dropped during it (by the event that sent them), when the watch has a world.
   */
  messages?: readonly BusMessage[];
  /**
   * How the world applies one event (its reducers, src/world.ts): what `stateAfter` folds with when
   * `states` is absent. Handed in by whoever builds the observation, so the monitors' contract
   * imports no list of areas (src/areas.ts imports the monitors).
   */
  fold?: (state: SimState, event: SimEvent) => SimState;
}

export interface Monitor {
  id: InvariantId | HazardId;
  kind: 'invariant' | 'hazard';
  /** What it checks, in the words of invariants.md. */
  description: string;
  /** New findings after a step. A hazard reports when it arises, not again while it lasts. */
  observe(o: Observation): Finding[];
  /**
   * A monitor that remembers what this one has seen so far and goes on independently: what either
   * is shown next never reaches the other. The explorer forks the monitors with the world at each
   * branch, so a new state's monitors are shown its last step only, instead of a fresh set being
   * shown the whole path again. A monitor that remembers nothing may return itself.
   */
  fork(): Monitor;
}

/** A monitor that remembers nothing between steps: its fork is itself. */
export function stateless(m: Omit<Monitor, 'fork'>): Monitor {
  const monitor: Monitor = { ...m, fork: () => monitor };
  return monitor;
}

/** Each run gets fresh monitors: some remember what they saw (what a cluster stored before a wipe). */
export type MonitorFactory = () => Monitor;
