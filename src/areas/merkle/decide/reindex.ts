// POST sys/replication/dr/secondary/reindex (A.6): a reindex runs in simulated time (its duration is
// proportional to the stored objects: the constants in merkle.ts), one at a time, and repairs the
// damage the `corrupt` fault made.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { isDrSecondary } from '../../core/http/authorize.js';
import { reply } from '../../../kernel/http/http.js';
import { notDrSecondary } from '../../operation-token/decide/strategy.js';
import { reindexDurationMs, storedObjectCount, type ReindexStarted } from '../merkle.js';
import { merkleRefusals } from '../refusals.js';

export const PATH = 'sys/replication/dr/secondary/reindex';

export const fields = {
  dr_operation_token: { type: 'string' },
  diff: { type: 'bool', default: false },
  force: { type: 'bool', default: false },
  skip_flush: { type: 'bool', default: false },
} as const;

export function decide(ctx: RequestContext<typeof fields>): Outcome {
  if (!isDrSecondary(ctx.cluster)) return notDrSecondary(PATH);
  return start(ctx);
}

/** POST sys/replication/reindex: the same reindex, of whichever cluster is asked (sudo, a client token). */
export const ANY_PATH = 'sys/replication/reindex';
export const anyFields = { diff: fields.diff, force: fields.force, skip_flush: fields.skip_flush } as const;

export function start(ctx: RequestContext<typeof anyFields>): Outcome {
  const c = ctx.cluster;
  // Simulator wording: the service's answer to a second reindex is not public.
  if (c.merkle.reindexUntil !== null) return merkleRefusals.reindexRunning(c.merkle.reindexUntil);
  const { diff, force, skip_flush: skipFlush } = ctx.fields;
  const objects = storedObjectCount(c);
  const duration = reindexDurationMs(objects, { diff, skipFlush });
  const event: ReindexStarted = { type: 'reindex-started', at: ctx.now, cluster: c.name, until: ctx.now + duration, objects, diff, force, skipFlush };
  const warnings = [`reindex started: walking ${objects} stored objects${diff ? ' with a key-level diff' : ''}; it ends in ${duration} ms of simulated time, when last_reindex_epoch changes`];
  if (skipFlush) warnings.push('skip_flush: the tree is flushed asynchronously; if this node dies before the flush ends, a new reindex may be needed');
  return { events: [event], reply: () => reply.data(null, { warnings }) };
}
