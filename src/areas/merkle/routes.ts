// Reindex and merkle-check on a DR secondary, both authorised by the DR operation token. A reindex
// runs in simulated time (see the constants in cluster/merkle.ts) and repairs the damage the
// `corrupt` fault made; a merkle-check reports that damage in the service's report shape.
import { merkleCorruptionReport, reindexDurationMs, storedObjectCount, type ReindexStarted } from './merkle.js';
import { isDrSecondary } from '../cluster/http/authorize.js';
import { errors, reply } from '../../kernel/http/http.js';
import { drOperationTokenAuth, notDrSecondary } from '../operation-token/routes.js';
import { endpoint, type Route } from '../cluster/http/route.js';
import { merkleRefusals } from './refusals.js';

const REINDEX = 'sys/replication/dr/secondary/reindex';
const MERKLE_CHECK = 'sys/replication/dr/secondary/merkle-check';

const reindex: Route = {
  pattern: REINDEX,
  methods: {
    POST: endpoint({
      summary: 'reindex the merkle trees of a DR secondary',
      auth: drOperationTokenAuth,
      fields: {
        dr_operation_token: { type: 'string' },
        diff: { type: 'bool', default: false },
        force: { type: 'bool', default: false },
        skip_flush: { type: 'bool', default: false },
      },
      handle: (ctx) => {
        const c = ctx.cluster;
        if (!isDrSecondary(c)) return notDrSecondary(REINDEX);
        // Simulator wording: the service's answer to a second reindex is not public.
        if (c.merkle.reindexUntil !== null)
          return merkleRefusals.reindexRunning(c.merkle.reindexUntil);
        const { diff, force, skip_flush: skipFlush } = ctx.fields;
        const objects = storedObjectCount(c);
        const duration = reindexDurationMs(objects, { diff, skipFlush });
        const event: ReindexStarted = { type: 'reindex-started', at: ctx.now, cluster: c.name, until: ctx.now + duration, objects, diff, force, skipFlush };
        const warnings = [`reindex started: walking ${objects} stored objects${diff ? ' with a key-level diff' : ''}; it ends in ${duration} ms of simulated time, when last_reindex_epoch changes`];
        if (skipFlush) warnings.push('skip_flush: the tree is flushed asynchronously; if this node dies before the flush ends, a new reindex may be needed');
        return { events: [event], reply: () => reply.data(null, { warnings }) };
      },
    }),
  },
};

const merkleCheck: Route = {
  pattern: MERKLE_CHECK,
  methods: {
    POST: endpoint({
      summary: 'check the merkle trees of a DR secondary for corruption',
      auth: drOperationTokenAuth,
      fields: { dr_operation_token: { type: 'string' } },
      handle: (ctx) => {
        const c = ctx.cluster;
        if (!isDrSecondary(c)) return notDrSecondary(MERKLE_CHECK);
        return {
          events: [{ type: 'merkle-checked', at: ctx.now, cluster: c.name }],
          reply: (after) => reply.data({ merkle_corruption_report: merkleCorruptionReport(after.clusters[c.name]) }),
        };
      },
    }),
  },
};

export const merkleRoutes: Route[] = [reindex, merkleCheck];
