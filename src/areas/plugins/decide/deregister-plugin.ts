// DELETE sys/plugins/catalog/<type>/:name: removes a plugin (nothing to remove changes nothing).
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { reply } from '../../../kernel/http/http.js';
import { catalogKey, type PluginDeregistered, type PluginType } from '../plugins.js';
import { forwarded, landing } from './common.js';

export const decide =
  (type: PluginType) =>
  (ctx: RequestContext): Outcome => {
    const target = landing(ctx);
    if ('kind' in target) return target;
    if (!target.plugins.plugins[catalogKey(type, ctx.params.name)]) return reply.empty();
    const event: PluginDeregistered = { type: 'plugin-deregistered', at: ctx.now, cluster: target.name, pluginType: type, name: ctx.params.name, ...forwarded(ctx, target) };
    return { events: [event], reply: () => reply.empty() };
  };
