// Area B: performance replication under sys/replication/performance. The role endpoints are the
// shared ones for kind `performance` (replication-shared.ts): no DR operation token anywhere, so
// promote, disable and update-primary take an ordinary client token, and none of them stays open on
// a DR secondary. Beside them, the paths filter a primary keeps per secondary id, and the dynamic
// filter read on the primary and on the secondary. What a filter does to the data is in
// cluster/replication/filters.ts; writes forwarded to the primary in cluster/forwarding.ts.
import { modeOf } from '../../../models/replication-role.machine.js';
import { dynamicFilterOf, normaliseFilterPath, type FilterEvent } from './index.js';
import type { ClusterState, DynamicFilter, PathsFilter } from '../cluster/state.js';
import { hasOwn, own } from '../../kernel/own.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { adminAuth, replicationErrors, replicationRoutes } from './routes-shared.js';
import { endpoint, type Route } from '../cluster/http/route.js';
import { replicationRefusals as R } from './refusals.js';

const PERF = 'sys/replication/performance';
const err = replicationErrors('performance');

/** The filter refusals (refusals.ts). */
const filterErrors = {
  badMode: (mode: string) => R.badFilterMode(mode),
  emptyPath: () => R.emptyFilterPath(),
  revoked: (id: string) => R.filterRevoked(id),
  notThisSecondary: (own: string, id: string) => (own === '' ? R.noPrimaryToFilter() : R.notThisSecondary(own, id)),
};

/** The paths filter `:id` on a performance primary: the secondary id must be one it issued a token for. */
function issuedOn(c: ClusterState, id: string): Reply | null {
  if (c.replication.performance.role !== 'primary') return err.notPrimary(c);
  if (!hasOwn(c.replication.performance.issued, id)) return err.unknownId(id);
  return null;
}

const sameFilter = (a: PathsFilter | null, b: PathsFilter) => a !== null && a.mode === b.mode && a.paths.join('\n') === b.paths.join('\n');

function dynamicFilterReply(f: DynamicFilter): Reply {
  return reply.data({ dynamic_filtered_mounts: f.mounts, dynamic_filtered_namespaces: f.namespaces });
}

/** POST/GET/DELETE performance/primary/paths-filter/:id: the filter for one secondary id. */
const pathsFilterRoute: Route = {
  pattern: `${PERF}/primary/paths-filter/:id`,
  methods: {
    POST: endpoint({
      summary: 'set the paths filter of a performance secondary',
      auth: adminAuth,
      fields: { mode: { type: 'string', default: 'allow' }, paths: { type: 'strings', default: [] } },
      handle: (ctx) => {
        const c = ctx.cluster;
        const id = ctx.params.id;
        const refused = issuedOn(c, id);
        if (refused) return refused;
        if (c.replication.performance.issued[id].revoked) return filterErrors.revoked(id);
        const mode = ctx.fields.mode.trim().toLowerCase();
        if (mode !== 'allow' && mode !== 'deny') return filterErrors.badMode(ctx.fields.mode);
        const paths: string[] = [];
        for (const raw of ctx.fields.paths) {
          const p = normaliseFilterPath(raw);
          if (p === '') return filterErrors.emptyPath();
          if (!paths.includes(p)) paths.push(p);
        }
        const filter: PathsFilter = { mode, paths };
        // The same filter again changes nothing, so nothing goes into the log.
        if (sameFilter(c.replication.performance.issued[id].filter, filter)) return reply.empty();
        const event: FilterEvent = { type: 'replication-paths-filter-set', at: ctx.now, kind: 'performance', cluster: c.name, id, mode, paths };
        return { events: [event], reply: () => reply.empty() };
      },
    }),
    GET: endpoint({
      summary: 'read the paths filter of a performance secondary',
      auth: adminAuth,
      handle: (ctx) => {
        const c = ctx.cluster;
        if (c.replication.performance.role !== 'primary') return err.notPrimary(c);
        const filter = own(c.replication.performance.issued, ctx.params.id)?.filter;
        // No filter for that id: a read that finds nothing, as the service answers it.
        return filter ? reply.data({ mode: filter.mode, paths: filter.paths }) : errors.notFound();
      },
    }),
    DELETE: endpoint({
      summary: 'delete the paths filter of a performance secondary',
      auth: adminAuth,
      handle: (ctx) => {
        const c = ctx.cluster;
        const id = ctx.params.id;
        const refused = issuedOn(c, id);
        if (refused) return refused;
        if (c.replication.performance.issued[id].filter === null) return reply.empty();
        const event: FilterEvent = { type: 'replication-paths-filter-deleted', at: ctx.now, kind: 'performance', cluster: c.name, id };
        return { events: [event], reply: () => reply.empty() };
      },
    }),
  },
};

/** GET performance/primary/dynamic-filter/:id: what the primary filters from that secondary now. */
const primaryDynamicFilterRoute: Route = {
  pattern: `${PERF}/primary/dynamic-filter/:id`,
  methods: {
    GET: endpoint({
      summary: 'read the dynamic filter of a performance secondary (on the primary)',
      auth: adminAuth,
      handle: (ctx) => issuedOn(ctx.cluster, ctx.params.id) ?? dynamicFilterReply(dynamicFilterOf(ctx.cluster, ctx.params.id)),
    }),
  },
};

/** GET performance/secondary/dynamic-filter/:id: what this secondary was told its primary filters from it, at its last sync. */
const secondaryDynamicFilterRoute: Route = {
  pattern: `${PERF}/secondary/dynamic-filter/:id`,
  methods: {
    GET: endpoint({
      summary: 'read the dynamic filter of this performance secondary',
      auth: adminAuth,
      handle: (ctx) => {
        const r = ctx.cluster.replication.performance;
        if (modeOf(r.role) !== 'secondary') return err.notSecondary();
        if (ctx.params.id !== r.secondaryId) return filterErrors.notThisSecondary(r.secondaryId, ctx.params.id);
        return dynamicFilterReply(r.dynamicFilter);
      },
    }),
  },
};

export const performanceRoutes: Route[] = [...replicationRoutes('performance'), pathsFilterRoute, primaryDynamicFilterRoute, secondaryDynamicFilterRoute];
