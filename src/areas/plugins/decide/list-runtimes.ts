// LIST (or GET) sys/plugins/runtimes/catalog: every runtime, sorted by name within its type, under
// `runtimes`; no `keys`.
import type { RequestContext } from '../../core/http/route.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { runtimeView } from './common.js';

export function decide(ctx: RequestContext): Reply {
  const runtimes = Object.values(ctx.cluster.plugins.runtimes)
    .sort((a, b) => (a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(runtimeView);
  if (runtimes.length > 0) return reply.data({ runtimes });
  // With no runtimes the data is empty: a LIST of it is a 404, a read an empty object.
  return ctx.method === 'LIST' ? errors.notFound() : reply.data({});
}
