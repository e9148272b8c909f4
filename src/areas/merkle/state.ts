// The merkle trees' part of a cluster's state: pages marked corrupted, reindex and check times.
// Declared to the core (src/areas/core/state.ts `AreaClusterState`), which names no area.

export interface MerkleState {
  /** tree → page → corrupted subpages. */
  corrupted: { replicated: Record<string, number[]>; local: Record<string, number[]> };
  lastReindexAt: number | null;
  lastCorruptionCheckAt: number | null;
  /** A reindex in progress ends at this time. */
  reindexUntil: number | null;
}


declare module '../core/state.js' {
  interface AreaClusterState {
    merkle: MerkleState;
  }
}
