// POST sys/replication/force-corruption: the service's test helper that damages a merkle page, which
// is what the scenarios' `corrupt` fault does. `subtree` names the tree (`replicated` or `local`;
// the service's values are not documented, so its tree numbers 1 and 2 are taken too); the two
// root-hash flags are taken and reported back, since the simulated tree has no hashes to damage.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { reply } from '../../../kernel/http/http.js';
import { merkleRefusals } from '../refusals.js';

export const PATH = 'sys/replication/force-corruption';

export const fields = {
  subtree: { type: 'string', default: 'replicated' },
  page: { type: 'int', default: 0 },
  subpage: { type: 'int', default: 0 },
  composite_root_hash: { type: 'bool', default: false },
  subtree_root_hash: { type: 'bool', default: false },
} as const;

const TREES: Record<string, 'replicated' | 'local'> = { replicated: 'replicated', '1': 'replicated', local: 'local', '2': 'local' };

export function decide(ctx: RequestContext<typeof fields>): Outcome {
  const f = ctx.fields;
  const tree = Object.prototype.hasOwnProperty.call(TREES, f.subtree) ? TREES[f.subtree] : undefined;
  if (!tree) return merkleRefusals.badSubtree(f.subtree);
  if (f.page < 0 || f.subpage < 0 || f.subpage > 255) return merkleRefusals.badPage(f.page, f.subpage);
  return {
    events: [{ type: 'merkle-corrupted', at: ctx.now, cluster: ctx.cluster.name, tree, page: f.page, subpage: f.subpage }],
    reply: () => reply.data({ subtree: tree, page: f.page, subpage: f.subpage, composite_root_hash: f.composite_root_hash, subtree_root_hash: f.subtree_root_hash }),
  };
}
