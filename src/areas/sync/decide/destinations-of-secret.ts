// GET sys/sync/associations/destinations?mount=…&secret_name=… and GET sys/sync/associations/<mount>/<secret>:
// every destination of the namespace that has handled the secret, with its latest status.
import type { RequestContext } from '../../core/http/route.js';
import type { MountEntry } from '../../core/state.js';
import type { Reply } from '../../../kernel/http/http.js';
import { syncRefusals } from '../refusals.js';
import { destinationsOfSecret, mountNamed } from './common.js';

export function decideByQuery(ctx: RequestContext): Reply {
  const given = ctx.query.mount ?? '';
  const secretName = ctx.query.secret_name ?? '';
  if (given === '') return syncRefusals.missingField('mount');
  if (secretName === '') return syncRefusals.missingField('secret_name');
  const mount = mountNamed(ctx, given);
  return mount ? destinationsOfSecret(ctx, mount, secretName) : syncRefusals.noMount(given);
}

export function decideByPath(ctx: RequestContext): Reply {
  // `<mount>/<secret>`: the longest mount of the namespace that prefixes the path.
  const rest = ctx.params.rest;
  let best: MountEntry | null = null;
  for (const m of Object.values(ctx.cluster.storage.mounts)) {
    const rel = m.path.slice(ctx.namespace.length);
    if (m.namespace === ctx.namespace && rest.startsWith(rel) && rest.length > rel.length && (!best || m.path.length > best.path.length)) best = m;
  }
  if (!best) return syncRefusals.noMount(rest.split('/')[0]);
  return destinationsOfSecret(ctx, best, rest.slice(best.path.length - ctx.namespace.length));
}
