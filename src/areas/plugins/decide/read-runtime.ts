// GET sys/plugins/runtimes/catalog/container/:name: one runtime, or the catalog's answer for an unknown one.
import type { RequestContext } from '../../core/http/route.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { catalogKey } from '../plugins.js';
import { pluginRefusals as P } from '../refusals.js';
import { runtimeView } from './common.js';

export function decide(ctx: RequestContext): Reply {
  const r = ctx.cluster.plugins.runtimes[catalogKey('container', ctx.params.name)];
  return r ? reply.data(runtimeView(r)) : P.runtimeUnknown(ctx.params.name);
}
