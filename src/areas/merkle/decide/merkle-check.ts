// POST sys/replication/dr/secondary/merkle-check: reports the damage the `corrupt` fault made, in the
// service's report shape.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { isDrSecondary } from '../../core/http/authorize.js';
import { reply } from '../../../kernel/http/http.js';
import { notDrSecondary } from '../../operation-token/decide/strategy.js';
import { merkleCorruptionReport } from '../merkle.js';

export const PATH = 'sys/replication/dr/secondary/merkle-check';

export const fields = { dr_operation_token: { type: 'string' } } as const;

export function decide(ctx: RequestContext<typeof fields>): Outcome {
  if (!isDrSecondary(ctx.cluster)) return notDrSecondary(PATH);
  return check(ctx);
}

/** POST sys/replication/merkle-check: the same check, of whichever cluster is asked (a client token). */
export const ANY_PATH = 'sys/replication/merkle-check';

export function check(ctx: RequestContext): Outcome {
  const c = ctx.cluster;
  return {
    events: [{ type: 'merkle-checked', at: ctx.now, cluster: c.name }],
    reply: (after) => reply.data({ merkle_corruption_report: merkleCorruptionReport(after.clusters.named(c.name)) }),
  };
}
