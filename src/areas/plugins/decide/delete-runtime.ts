// DELETE sys/plugins/runtimes/catalog/container/:name: the plugin-runtime machine refuses a runtime a
// registered plugin still references, and one that is not registered.
import { runtimeRefusal, type RuntimeValue } from '../../../../models/plugin-runtime.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { reply } from '../../../kernel/http/http.js';
import { catalogKey, pluginsWithRuntime, type PluginRuntimeDeleted } from '../plugins.js';
import { pluginRefusals as P } from '../refusals.js';
import { forwarded, landing } from './common.js';

export function decide(ctx: RequestContext): Outcome {
  const { name } = ctx.params;
  const target = landing(ctx);
  if ('kind' in target) return target;
  const catalog = target.plugins;
  const value: RuntimeValue = catalog.runtimes[catalogKey('container', name)] ? 'registered' : 'absent';
  const refusal = runtimeRefusal(value, { type: 'delete', referencedBy: pluginsWithRuntime(catalog, name) });
  if (refusal?.kind === 'referenced') return P.referenced(name, refusal.plugins);
  if (refusal?.kind === 'not-found') return P.runtimeAbsent();
  const event: PluginRuntimeDeleted = { type: 'plugin-runtime-deleted', at: ctx.now, cluster: target.name, runtimeType: 'container', name, ...forwarded(ctx, target) };
  return { events: [event], reply: () => reply.empty() };
}
