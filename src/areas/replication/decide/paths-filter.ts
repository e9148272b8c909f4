// POST/GET/DELETE performance/primary/paths-filter/:id: the paths filter a performance primary keeps
// for one secondary id (area B): `:id` is an id it issued a token for (B.1); after a new token for
// that id is used, the filter must be created again (B.1, evolve.ts). What a filter does to the data
// is in filters.ts.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ClusterState } from '../../core/state.js';
import type { PathsFilter } from '../state.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { hasOwn, own } from '../../../kernel/own.js';
import type { FilterEvent } from '../events.js';
import { normaliseFilterPath } from '../filters.js';
import { replicationRefusals as R } from '../refusals.js';
import { replicationErrors } from './common.js';

const err = replicationErrors('performance');

export const fields = { mode: { type: 'string', default: 'allow' }, paths: { type: 'strings', default: [] } } as const;

/** The paths filter `:id` on a performance primary: the secondary id must be one it issued a token for. */
export function issuedOn(c: ClusterState, id: string): Reply | null {
  if (c.replication.performance.role !== 'primary') return err.notPrimary(c);
  if (!hasOwn(c.replication.performance.issued, id)) return err.unknownId(id);
  return null;
}

const sameFilter = (a: PathsFilter | null, b: PathsFilter) => a !== null && a.mode === b.mode && a.paths.join('\n') === b.paths.join('\n');

/** POST: sets the filter; the same filter again changes nothing, so nothing goes into the log. */
export function decideSet(ctx: RequestContext<typeof fields>): Outcome {
  const c = ctx.cluster;
  const id = ctx.params.id;
  const refused = issuedOn(c, id);
  if (refused) return refused;
  if (c.replication.performance.issued[id].revoked) return R.filterRevoked(id);
  const mode = ctx.fields.mode.trim().toLowerCase();
  if (mode !== 'allow' && mode !== 'deny') return R.badFilterMode(ctx.fields.mode);
  const paths: string[] = [];
  for (const raw of ctx.fields.paths) {
    const p = normaliseFilterPath(raw);
    if (p === '') return R.emptyFilterPath();
    if (!paths.includes(p)) paths.push(p);
  }
  const filter: PathsFilter = { mode, paths };
  if (sameFilter(c.replication.performance.issued[id].filter, filter)) return reply.empty();
  const event: FilterEvent = { type: 'replication-paths-filter-set', at: ctx.now, kind: 'performance', cluster: c.name, id, mode, paths };
  return { events: [event], reply: () => reply.empty() };
}

/** GET: the filter; no filter for that id is a read that finds nothing, as the service answers it. */
export function decideRead(ctx: RequestContext): Outcome {
  const c = ctx.cluster;
  if (c.replication.performance.role !== 'primary') return err.notPrimary(c);
  const filter = own(c.replication.performance.issued, ctx.params.id)?.filter;
  return filter ? reply.data({ mode: filter.mode, paths: filter.paths }) : errors.notFound();
}

/** DELETE: removes the filter (nothing to remove changes nothing). */
export function decideDelete(ctx: RequestContext): Outcome {
  const c = ctx.cluster;
  const id = ctx.params.id;
  const refused = issuedOn(c, id);
  if (refused) return refused;
  if (c.replication.performance.issued[id].filter === null) return reply.empty();
  const event: FilterEvent = { type: 'replication-paths-filter-deleted', at: ctx.now, kind: 'performance', cluster: c.name, id };
  return { events: [event], reply: () => reply.empty() };
}
