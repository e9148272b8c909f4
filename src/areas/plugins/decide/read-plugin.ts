// GET sys/plugins/catalog/<type>/:name: a registered plugin as the catalog shows it (never its env).
import type { RequestContext } from '../../core/http/route.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { catalogKey, type PluginType, type RegisteredPlugin } from '../plugins.js';

function pluginView(p: RegisteredPlugin) {
  const data: Record<string, unknown> = { name: p.name, args: p.args, command: p.command, sha256: p.sha256, builtin: false, version: '' };
  if (p.oci_image !== '') data.oci_image = p.oci_image;
  if (p.runtime !== '') data.runtime = p.runtime;
  return data;
}

export const decide =
  (type: PluginType) =>
  (ctx: RequestContext): Reply => {
    const p = ctx.cluster.plugins.plugins[catalogKey(type, ctx.params.name)];
    return p ? reply.data(pluginView(p)) : errors.notFound();
  };
