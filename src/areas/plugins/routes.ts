// The plugin runtime catalog (spec area C), and as much of the plugin catalog as it takes to
// register a plugin that runs with a runtime, read it and remove it. Every path needs `sudo`
// (`plugins/runtimes/catalog/*` and `plugins/catalog/*` are the service's root paths) and is served
// only in the root namespace. Handlers, texts and statuses follow the service's system backend
// (vault-api-facts.md §C).
//
// The catalog is replicated configuration: a performance secondary answers reads from its copy of
// its primary's catalog, and a change sent to it is applied on the primary (`configurationLanding`),
// checked against the primary's catalog.
import { runtimeRefusal, type RuntimeValue } from '../../../models/plugin-runtime.machine.js';
import { configurationLanding } from '../replication/forwarding.js';
import type { ClusterState } from '../cluster/state.js';
import {
  PLUGIN_TYPES,
  catalogKey,
  pluginsWithRuntime,
  type PluginDeregistered,
  type PluginRegistered,
  type PluginRuntime,
  type PluginRuntimeDeleted,
  type PluginRuntimeRegistered,
  type PluginType,
  type RegisteredPlugin,
} from './plugins.js';
import type { FieldSpec } from '../../kernel/http/fields.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type AuthRule, type Outcome, type RequestContext, type Route } from '../cluster/http/route.js';
import { pluginRefusals as P } from './refusals.js';

/** A CE feature: no licence needed. Root-namespace only, and `sudo` on top of the path's capability. */
const catalogAuth: AuthRule = { token: 'client', sudo: true, rootNamespace: true };

/** The cluster a change lands on (the primary, for a performance secondary), or why it cannot be forwarded. */
function landing(ctx: RequestContext): ClusterState | Reply {
  const l = configurationLanding(ctx.state, ctx.cluster);
  return 'refuse' in l ? l.refuse : ctx.state.clusters[l.cluster];
}

/** The catalog's answer for a runtime that is not registered (newest form), passed on as a plain error. */

function runtimeView(r: PluginRuntime) {
  return { name: r.name, type: r.type, oci_runtime: r.oci_runtime, cgroup_parent: r.cgroup_parent, cpu_nanos: r.cpu_nanos, memory_bytes: r.memory_bytes };
}

const runtimeFields = {
  oci_runtime: { type: 'string', default: '' },
  cgroup_parent: { type: 'string', default: '' },
  cpu_nanos: { type: 'int', default: 0 },
  memory_bytes: { type: 'int', default: 0 },
} as const satisfies Record<string, FieldSpec>;

function registerRuntime(ctx: RequestContext<typeof runtimeFields>): Outcome {
  const { oci_runtime, cgroup_parent, cpu_nanos, memory_bytes } = ctx.fields;
  if (cpu_nanos < 0) return P.negativeCpu();
  if (memory_bytes < 0) return P.negativeMemory();
  const target = landing(ctx);
  if ('kind' in target) return target;
  // Stored as given: an empty `oci_runtime` means the default, runsc, and reads back empty.
  const runtime: PluginRuntime = { name: ctx.params.name, type: 'container', oci_runtime, cgroup_parent, cpu_nanos, memory_bytes };
  const event: PluginRuntimeRegistered = { type: 'plugin-runtime-registered', at: ctx.now, cluster: target.name, runtime };
  return { events: [event], reply: () => reply.empty() };
}

function deleteRuntime(ctx: RequestContext): Outcome {
  const { name } = ctx.params;
  const target = landing(ctx);
  if ('kind' in target) return target;
  const catalog = target.plugins;
  const value: RuntimeValue = catalog.runtimes[catalogKey('container', name)] ? 'registered' : 'absent';
  const refusal = runtimeRefusal(value, { type: 'delete', referencedBy: pluginsWithRuntime(catalog, name) });
  if (refusal?.kind === 'referenced') return P.referenced(name, refusal.plugins);
  if (refusal?.kind === 'not-found') return P.runtimeAbsent();
  const event: PluginRuntimeDeleted = { type: 'plugin-runtime-deleted', at: ctx.now, cluster: target.name, runtimeType: 'container', name };
  return { events: [event], reply: () => reply.empty() };
}

/** LIST (or GET) of the catalog: every runtime, sorted by name within its type, under `runtimes`; no `keys`. */
function listRuntimes(ctx: RequestContext): Reply {
  const runtimes = Object.values(ctx.cluster.plugins.runtimes)
    .sort((a, b) => (a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(runtimeView);
  if (runtimes.length > 0) return reply.data({ runtimes });
  // With no runtimes the data is empty: a LIST of it is a 404, a read an empty object.
  return ctx.method === 'LIST' ? errors.notFound() : reply.data({});
}

const runtimeRoutes: Route[] = [
  {
    pattern: 'sys/plugins/runtimes/catalog',
    methods: {
      LIST: endpoint({ summary: 'list plugin runtimes', auth: catalogAuth, handle: listRuntimes }),
      GET: endpoint({ summary: 'list plugin runtimes', auth: catalogAuth, handle: listRuntimes }),
    },
  },
  {
    // Only `container` matches the service's URL pattern: another type is an unsupported path.
    pattern: 'sys/plugins/runtimes/catalog/container/:name',
    methods: {
      POST: endpoint({ summary: 'register or update a container plugin runtime', auth: catalogAuth, fields: runtimeFields, handle: registerRuntime }),
      GET: endpoint({
        summary: 'read a plugin runtime',
        auth: catalogAuth,
        handle: (ctx) => {
          const r = ctx.cluster.plugins.runtimes[catalogKey('container', ctx.params.name)];
          return r ? reply.data(runtimeView(r)) : P.runtimeUnknown(ctx.params.name);
        },
      }),
      DELETE: endpoint({ summary: 'remove a plugin runtime', auth: catalogAuth, handle: deleteRuntime }),
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// Plugins that reference runtimes

const pluginFields = {
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

function registerPlugin(type: PluginType, ctx: RequestContext<typeof pluginFields>): Outcome {
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
  if (oci_image !== '' && runtime !== '' && !target.plugins.runtimes[catalogKey('container', runtime)])
    return P.pluginRuntimeUnknown(name, runtime);
  const plugin: RegisteredPlugin = { name, type, command, args, sha256: sha256.toLowerCase(), oci_image, runtime };
  const event: PluginRegistered = { type: 'plugin-registered', at: ctx.now, cluster: target.name, plugin };
  return { events: [event], reply: () => reply.empty() };
}

function pluginView(p: RegisteredPlugin) {
  const data: Record<string, unknown> = { name: p.name, args: p.args, command: p.command, sha256: p.sha256, builtin: false, version: '' };
  if (p.oci_image !== '') data.oci_image = p.oci_image;
  if (p.runtime !== '') data.runtime = p.runtime;
  return data;
}

function pluginRoutes(type: PluginType): Route {
  const a = type === 'auth' ? 'an' : 'a';
  return {
    pattern: `sys/plugins/catalog/${type}/:name`,
    methods: {
      POST: endpoint({ summary: `register ${a} ${type} plugin in the plugin catalog`, auth: catalogAuth, fields: pluginFields, handle: (ctx) => registerPlugin(type, ctx) }),
      GET: endpoint({
        summary: `read ${a} ${type} plugin of the plugin catalog`,
        auth: catalogAuth,
        handle: (ctx) => {
          const p = ctx.cluster.plugins.plugins[catalogKey(type, ctx.params.name)];
          return p ? reply.data(pluginView(p)) : errors.notFound();
        },
      }),
      DELETE: endpoint({
        summary: `remove ${a} ${type} plugin from the plugin catalog`,
        auth: catalogAuth,
        handle: (ctx) => {
          const target = landing(ctx);
          if ('kind' in target) return target;
          if (!target.plugins.plugins[catalogKey(type, ctx.params.name)]) return reply.empty();
          const event: PluginDeregistered = { type: 'plugin-deregistered', at: ctx.now, cluster: target.name, pluginType: type, name: ctx.params.name };
          return { events: [event], reply: () => reply.empty() };
        },
      }),
    },
  };
}

export const pluginRuntimeRoutes: Route[] = [...runtimeRoutes, ...PLUGIN_TYPES.map(pluginRoutes)];
