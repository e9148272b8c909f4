// Replication's events, reducers and timed processes. Placeholder until the DR and performance
// issues land: no replication event exists yet.
import type { SimEvent } from './events.js';
import type { SimState } from './state.js';

export type ReplicationEvent = never;
export const replicationReducers = {};

/** Something that happens by itself as time passes (a WAL delivery, an expiry): its time and events. */
export type TimedProcess = (state: SimState) => { at: number; events: SimEvent[] } | null;
export const replicationProcesses: TimedProcess[] = [];
