// The refusals of merkle's own endpoints (reindex, merkle-check), registered once
// (kernel/refusal.ts). Calling them off a DR secondary is operation-token's `notDrSecondary`.
import { defineRefusals } from '../../kernel/refusal.js';

const rule = (id: string, words: string) => ({ id, words });

export const merkleRefusals = defineRefusals('merkle', {
  /** Simulator wording: the service's answer to a second reindex is not public. */
  reindexRunning: {
    status: 400,
    wording: 'simulator',
    text: (until: number) => [`a reindex is already running on this cluster until ${until} ms; wait for it to finish (last_reindex_epoch changes) before starting another`],
    rule: rule('A.rule6', 'a reindex can take a very long time; one runs at a time (area A rule 6)'),
  },
  badSubtree: { status: 400, wording: 'simulator', text: (given: string) => [`subtree must be replicated or local (1 or 2), got ${JSON.stringify(given)}`], rule: rule('merkle.trees', 'a cluster has two merkle trees, replicated and local') },
  badPage: { status: 400, wording: 'simulator', text: (page: number, subpage: number) => [`page must be 0 or more and subpage from 0 to 255, got ${page} and ${subpage}`], rule: rule('merkle.pages', 'a merkle page has 256 subpages') },
});
