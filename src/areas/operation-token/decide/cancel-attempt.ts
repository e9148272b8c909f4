// DELETE …/attempt: cancels the attempt (the generation-attempt machine's cancel).
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { reply } from '../../../kernel/http/http.js';
import { attemptSecretOf } from '../operation-token.js';
import type { Strategy } from './strategy.js';

export function decide(s: Strategy) {
  return (ctx: RequestContext): Outcome => {
    const refused = s.precondition(ctx.cluster, s.attemptPath);
    if (refused) return refused;
    // Nothing to forget: answer without an event, so the log only holds changes.
    if (ctx.cluster.generation.value === 'none' && attemptSecretOf(ctx.cluster) === null) return reply.empty();
    return { events: [{ type: 'generation-cancelled', at: ctx.now, cluster: ctx.cluster.name }], reply: () => reply.empty() };
  };
}
