// The merkle tree: corruption, merkle-check, reindex. Events and routes are still placeholders;
// the tree's root and corruption state are read by the status record.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../world/canonical.js';
import type { ClusterState } from './state.js';
import type { TimedProcess } from './timed.js';

export type MerkleEvent = never;
export const merkleReducers = {};
export const merkleProcesses: TimedProcess[] = [];

/** Whether any page of either tree is marked corrupted. */
export function isMerkleCorrupted(c: ClusterState): boolean {
  return Object.keys(c.merkle.corrupted.replicated).length > 0 || Object.keys(c.merkle.corrupted.local).length > 0;
}

/** The 40-hex root of the cluster's replicated tree: a hash of what it stores, damaged pages included. */
export function merkleRootOf(c: ClusterState): string {
  const replicatedKv: Record<string, unknown> = {};
  for (const [mount, keys] of Object.entries(c.storage.kv)) if (!c.storage.mounts[mount]?.local) replicatedKv[mount] = keys;
  return createHash('sha1').update(canonicalJson({ kv: replicatedKv, corrupted: c.merkle.corrupted.replicated })).digest('hex');
}
