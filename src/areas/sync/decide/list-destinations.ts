// LIST sys/sync/destinations (by type, with `key_info`) and LIST sys/sync/destinations/:type: the
// destinations of the request's namespace; none is a 404, as a LIST that finds nothing.
import type { RequestContext } from '../../core/http/route.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { isDestinationType } from '../destinations.js';
import { syncRefusals } from '../refusals.js';
import { destinationsIn } from './common.js';

export function decide(ctx: RequestContext): Reply {
  const all = destinationsIn(ctx.cluster, ctx.namespace);
  if (all.length === 0) return errors.notFound();
  const key_info: Record<string, string[]> = {};
  for (const d of all) (key_info[`${d.type}/`] ??= []).push(d.name);
  for (const names of Object.values(key_info)) names.sort();
  return reply.data({ key_info, keys: Object.keys(key_info).sort(), total_destinations: all.length });
}

export function decideOfType(ctx: RequestContext): Reply {
  if (!isDestinationType(ctx.params.type)) return syncRefusals.unknownType();
  const names = destinationsIn(ctx.cluster, ctx.namespace)
    .filter((d) => d.type === ctx.params.type)
    .map((d) => d.name)
    .sort();
  return names.length ? reply.data({ keys: names, total_destinations: names.length }) : errors.notFound();
}
