// The merkle area's scenario step: the `corrupt` fault, which damages one subpage of a cluster's
// merkle tree so that merkle-check finds it and reindex repairs it (README of this folder).
import { z } from 'zod/v4';
import { declareStep, WorldUsageError } from '../core/steps.js';
import type { MerkleTree } from './merkle.js';

/** The two subtrees of a cluster's merkle tree. */
export const MERKLE_TREES = ['replicated', 'local'] as const satisfies readonly MerkleTree[];
/** A merkle page holds 256 subpages. */
const SUBPAGES = 256;

/** `corrupt`: damage one subpage of one merkle page. */
export interface CorruptStep {
  kind: 'corrupt';
  name?: string;
  on: string;
  tree: MerkleTree;
  page: number;
  subpage: number;
}

declare module '../core/steps.js' {
  interface AreaSteps {
    corrupt: CorruptStep;
  }
}

export const corruptStep = declareStep({
  action: 'corrupt',
  describe: 'Damage a merkle page (for merkle-check and reindex).',
  content: ({ strictObject, clusterRef }) =>
    strictObject('corrupt', {
      on: clusterRef,
      tree: z.enum(MERKLE_TREES),
      page: z.number().int().min(0),
      subpage: z.number().int().min(0),
    }),
  fields: (c: Omit<CorruptStep, 'kind' | 'name'>) => ({ on: c.on, tree: c.tree, page: c.page, subpage: c.subpage }),
  clusterKey: 'on',
  ctl: {
    usage: 'corrupt CLUSTER replicated|local PAGE SUBPAGE',
    arity: 4,
    content: ([on, tree, page, subpage]) => ({ on, tree, page: Number(page), subpage: Number(subpage) }),
  },
  title: (s) => `corrupt ${s.on}'s ${s.tree} merkle tree at page ${s.page}, subpage ${s.subpage}`,
  apply(world, s) {
    world.cluster(s.on);
    if (!Number.isInteger(s.page) || s.page < 0 || !Number.isInteger(s.subpage) || s.subpage < 0 || s.subpage >= SUBPAGES)
      throw new WorldUsageError(`corrupt: page must be a whole number >= 0 and subpage one from 0 to ${SUBPAGES - 1}`);
    world.append({ type: 'merkle-corrupted', at: world.state.now, cluster: s.on, tree: s.tree, page: s.page, subpage: s.subpage });
  },
});
