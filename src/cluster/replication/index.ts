// Replication (DR and performance): events, reducers, timed processes. Placeholder until built.
import type { TimedProcess } from '../timed.js';

export type ReplicationEvent = never;
export const replicationReducers = {};
export const replicationProcesses: TimedProcess[] = [];
