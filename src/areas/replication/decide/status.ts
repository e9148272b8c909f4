// GET sys/replication/<kind>/status and GET sys/replication/status: the status record, unauthenticated
// (Authentication 1). The combined one reports both kinds, `data: {dr, performance}`; a cluster
// without an enterprise licence answers `{mode: "disabled"}`, as the community edition does.
import type { RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { replicationStatus } from '../status.js';

export const decide = (kind: ReplicationKind) => (ctx: RequestContext): Reply => reply.data(replicationStatus(ctx.state, ctx.cluster.name, kind));

export function decideCombined(ctx: RequestContext): Reply {
  if (ctx.cluster.license === 'none') return reply.data({ mode: 'disabled' });
  return reply.data({ dr: replicationStatus(ctx.state, ctx.cluster.name, 'dr'), performance: replicationStatus(ctx.state, ctx.cluster.name, 'performance') });
}
