// The merkle trees of a cluster (replicated and local): damage from the `corrupt` fault, the
// merkle-check that reports it, and the reindex that rebuilds the trees over simulated time. The
// trees' roots and the corruption predicate are also read by the replication status record.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../kernel/canonical.js';
import { rfc3339 } from '../../kernel/clock.js';
import type { BaseEvent } from '../../kernel/engine.js';
import type { ClusterState } from '../core/state.js';
import type { MerkleEvent } from './events.js';
import { keyCount } from '../core/keymap.js';
export type * from './events.js';
export type * from './state.js';

export type MerkleTree = 'replicated' | 'local';

// How long a reindex takes, in simulated time. The service only says it "can take a very long
// time, depending on the number and size of stored objects"; these constants are the simulator's.
/** Taking the tree lock and setting up the walk. */
export const REINDEX_BASE_MS = 1_000;
/** Reading one stored object (a mount, or a KV key with its versions) and hashing it into its page. */
export const REINDEX_MS_PER_OBJECT = 50;
/** `diff`: the key-level check reads every value again, so the walk takes this many times longer. */
export const REINDEX_DIFF_FACTOR = 2;
/** Flushing the rebuilt tree, per object; `skip_flush` leaves it out, which shortens the tree lock. */
export const REINDEX_FLUSH_MS_PER_OBJECT = 10;


/** Whether any page of either tree is marked corrupted. */
export function isMerkleCorrupted(c: ClusterState): boolean {
  return Object.keys(c.merkle.corrupted.replicated).length > 0 || Object.keys(c.merkle.corrupted.local).length > 0;
}

/** The 40-hex root of one of the cluster's trees: a hash of what the tree covers, damaged pages included. */
export function merkleTreeRootOf(c: ClusterState, tree: MerkleTree): string {
  const kv: Record<string, unknown> = {};
  for (const [mount, keys] of Object.entries(c.storage.kv)) if ((c.storage.mounts[mount]?.local === true) === (tree === 'local')) kv[mount] = keys;
  return createHash('sha1').update(canonicalJson({ kv, corrupted: c.merkle.corrupted[tree] })).digest('hex');
}

/** The 40-hex root of the cluster's replicated tree (the status record's `merkle_root`). */
export function merkleRootOf(c: ClusterState): string {
  return merkleTreeRootOf(c, 'replicated');
}

/** Stored objects a reindex walks: every mount and every KV key. */
export function storedObjectCount(c: ClusterState): number {
  let n = Object.keys(c.storage.mounts).length;
  for (const keys of Object.values(c.storage.kv)) n += keyCount(keys);
  return n;
}

/** How long a reindex of `objects` stored objects takes with these options, in ms of simulated time. */
export function reindexDurationMs(objects: number, options: { diff: boolean; skipFlush: boolean }): number {
  const walk = objects * REINDEX_MS_PER_OBJECT * (options.diff ? REINDEX_DIFF_FACTOR : 1);
  const flush = options.skipFlush ? 0 : objects * REINDEX_FLUSH_MS_PER_OBJECT;
  return REINDEX_BASE_MS + walk + flush;
}

/** The `merkle_corruption_report` of a merkle-check, as the service prints it. */
export function merkleCorruptionReport(c: ClusterState) {
  const treeReport = (tree: MerkleTree) => {
    const pages = c.merkle.corrupted[tree];
    const damaged = Object.keys(pages).sort((a, b) => Number(a) - Number(b));
    const tuples: Record<string, { corrupted: boolean; subpages: number[] }> = {};
    for (const page of damaged) tuples[page] = { corrupted: true, subpages: [...pages[page]] };
    return {
      corrupted_index_tuples_map: damaged.length ? tuples : null,
      corrupted_subtree_root: damaged.length > 0,
      root_hash: Buffer.from(merkleTreeRootOf(c, tree), 'hex').toString('base64'),
      tree_type: tree,
    };
  };
  return {
    corrupted_root: isMerkleCorrupted(c),
    // The service keys the subtrees by number: 1 is the replicated tree, 2 the local one.
    corrupted_tree_map: { '1': treeReport('replicated'), '2': treeReport('local') },
    last_corruption_check_epoch: c.merkle.lastCorruptionCheckAt === null ? '' : rfc3339(c.merkle.lastCorruptionCheckAt),
  };
}
