// LIST sys/sync/associations: the secrets of the request's namespace that have at least one association.
import { isLinked } from '../../../../models/sync-association.machine.js';
import type { RequestContext } from '../../core/http/route.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { destinationsIn } from './common.js';

export function decide(ctx: RequestContext): Reply {
  const key_info: Record<string, { mount: string; secret_path: string }[]> = {};
  let total = 0;
  for (const d of destinationsIn(ctx.cluster, ctx.namespace)) {
    for (const a of Object.values(d.associations)) {
      if (!isLinked(a.value)) continue;
      total += 1;
      const mount = a.mount.slice(ctx.namespace.length);
      key_info[mount + a.secretName] ??= [{ mount, secret_path: a.secretName }];
    }
  }
  const keys = Object.keys(key_info).sort();
  if (keys.length === 0) return errors.notFound();
  return reply.data({ key_info, keys, total_associations: total, total_secrets: keys.length });
}
