// POST sys/replication/dr/secondary/operation-token/delete: the authorisation step has checked the
// DR operation token (authentication rule 2); deleting it is allowed wherever it is still valid.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { reply } from '../../../kernel/http/http.js';

export const fields = { dr_operation_token: { type: 'string' } } as const;

export const decide = (ctx: RequestContext<typeof fields>): Outcome => ({ events: [{ type: 'dr-operation-token-deleted', at: ctx.now, cluster: ctx.cluster.name }], reply: () => reply.empty() });
