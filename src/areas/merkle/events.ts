// The merkle area's events as types only, apart from merkle.ts so that the log's event union
// (cluster/events.ts) can name them without importing the reindex process: no import cycle.
import type { BaseEvent } from '../../kernel/engine.js';

/** POST …/reindex was accepted: the trees are being rebuilt until `until`. */
export interface ReindexStarted extends BaseEvent {
  type: 'reindex-started';
  cluster: string;
  /** Virtual time the reindex ends at. */
  until: number;
  /** Stored objects walked (mounts plus KV keys), which set the duration. */
  objects: number;
  diff: boolean;
  force: boolean;
  skipFlush: boolean;
}

/** Emitted by the reindex process when a running cluster's reindex ends: every damaged page is rebuilt. */
export interface ReindexFinished extends BaseEvent {
  type: 'reindex-finished';
  cluster: string;
}

/** Emitted by the reindex process when the cluster was down (crashed) as the reindex was due to end: it is lost and must be run again. */
export interface ReindexAbandoned extends BaseEvent {
  type: 'reindex-abandoned';
  cluster: string;
}

/** POST …/merkle-check was answered: the check's time is recorded (`last_corruption_check_epoch`). */
export interface MerkleChecked extends BaseEvent {
  type: 'merkle-checked';
  cluster: string;
}

/** The `corrupt` fault: a merkle page of a cluster's tree was damaged (for merkle-check and reindex). */
export interface MerkleCorrupted extends BaseEvent {
  type: 'merkle-corrupted';
  cluster: string;
  tree: 'replicated' | 'local';
  page: number;
  subpage: number;
}

export type MerkleEvent = MerkleCorrupted | ReindexStarted | ReindexFinished | ReindexAbandoned | MerkleChecked;

// This area's events, declared to the core's union of every event (cluster/events.ts).
declare module '../core/events.js' {
  interface AreaEvents {
    merkle: MerkleEvent;
  }
}
