// The merkle tree: corruption, merkle-check, reindex. Placeholder until built.
import type { TimedProcess } from './timed.js';

export type MerkleEvent = never;
export const merkleReducers = {};
export const merkleProcesses: TimedProcess[] = [];
