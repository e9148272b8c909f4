// POST sys/plugins/catalog/<type>/:name: registers a plugin, checked in the service's order (the first
// failing check names the error); a container plugin's runtime must be registered.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { reply } from '../../../kernel/http/http.js';
import { catalogKey, type PluginRegistered, type PluginType, type RegisteredPlugin } from '../plugins.js';
import { pluginRefusals as P } from '../refusals.js';
import { forwarded, landing } from './common.js';

export const fields = {
  sha256: { type: 'string', default: '' },
  command: { type: 'string', default: '' },
  args: { type: 'strings', default: [] },
  // Accepted; the service keeps it but never shows it (it may hold secrets), and the simulator drops it.
  env: { type: 'strings', default: [] },
  oci_image: { type: 'string', default: '' },
  runtime: { type: 'string', default: '' },
} as const satisfies Record<string, FieldSpec>;

/** Go's `hex.DecodeString` error for a string that is not hex, or null when it is. */
function hexError(s: string): string | null {
  const bad = [...s].find((ch) => !/[0-9a-fA-F]/.test(ch));
  if (bad !== undefined) return `encoding/hex: invalid byte: U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${bad}'`;
  return s.length % 2 === 1 ? 'encoding/hex: odd length hex string' : null;
}

export const decide =
  (type: PluginType) =>
  (ctx: RequestContext<typeof fields>): Outcome => {
    const name = ctx.params.name;
    const { sha256, oci_image, runtime } = ctx.fields;
    // Checked in the service's order, so the first failing check names the error.
    if (sha256 === '') return P.missingSha();
    if (ctx.fields.command === '' && oci_image === '') return P.noCommand();
    let command = ctx.fields.command;
    let args = ctx.fields.args;
    const parts = command.split(' ');
    if (parts.length > 1 && args.length > 0) return P.argsTwice();
    if (parts.length > 1) args = parts.slice(1);
    command = parts[0];
    const bad = hexError(sha256);
    if (bad) return P.badSha(sha256, bad);
    const target = landing(ctx);
    if ('kind' in target) return target;
    // The runtime is looked up only for a container plugin; a missing one fails registration as a plain error.
    if (oci_image !== '' && runtime !== '' && !target.plugins.runtimes[catalogKey('container', runtime)]) return P.pluginRuntimeUnknown(name, runtime);
    const plugin: RegisteredPlugin = { name, type, command, args, sha256: sha256.toLowerCase(), oci_image, runtime };
    const event: PluginRegistered = { type: 'plugin-registered', at: ctx.now, cluster: target.name, plugin, ...forwarded(ctx, target) };
    return { events: [event], reply: () => reply.empty() };
  };
