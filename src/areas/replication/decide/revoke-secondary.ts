// POST <kind>/primary/revoke-secondary: bars secondary `id`; it disconnects and receives nothing,
// and stays barred until given a new activation token.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { own } from '../../../kernel/own.js';
import { accepted, replicationErrors } from './common.js';

export const fields = { id: { type: 'string', required: 'missing id' } } as const;

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const r = ctx.cluster.replication[kind];
    if (r.role !== 'primary') return err.notPrimary(ctx.cluster);
    const id = ctx.fields.id.trim();
    if (id === '') return err.missingId();
    const issued = own(r.issued, id);
    if (!issued) return err.unknownId(id);
    if (issued.revoked) return err.alreadyRevoked(id);
    return accepted([{ type: 'replication-secondary-revoked', at: ctx.now, kind, cluster: ctx.cluster.name, id }]);
  };
}
