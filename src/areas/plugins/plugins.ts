// The plugin runtime catalog of one cluster (spec area C), and the plugins registered in the plugin
// catalog, as far as they matter here: a plugin run as a container image may name a runtime, and a
// runtime cannot be removed while a registered plugin names it. The runtime machine
// (models/plugin-runtime.machine.ts) decides what a request may do to a catalog entry.
//
// Under replication (src/areas/sync/README.md): the catalog is replicated configuration. Every change
// advances the cluster's WAL, so DR secondaries mirror it (and take it up when promoted);
// performance secondaries read a copy of their primary's and forward changes to it.
import type { BaseEvent } from '../../kernel/engine.js';
import { advancingWal } from '../sync/replicated-config.js';
import type { SimState } from '../cluster/state.js';

/** Plugin runtime types; only `container` exists (the internal `unsupported` type is never listed). */
export const RUNTIME_TYPES = ['container'] as const;
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

/** Plugin types of the plugin catalog's URL pattern. */
export const PLUGIN_TYPES = ['auth', 'database', 'secret'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

/** A runtime as the catalog stores it; fields as the service names them on read. */
export interface PluginRuntime {
  name: string;
  type: RuntimeType;
  /** "" means the default, `runsc` (the service stores what it was given). */
  oci_runtime: string;
  cgroup_parent: string;
  /** 0 means no limit. */
  cpu_nanos: number;
  /** 0 means no limit. */
  memory_bytes: number;
}

/** A registered plugin, as far as the simulator keeps one. */
export interface RegisteredPlugin {
  name: string;
  type: PluginType;
  command: string;
  args: string[];
  /** Hex, as given (lower-cased). */
  sha256: string;
  oci_image: string;
  /** The runtime it is run with ("" = none named). */
  runtime: string;
}

export interface PluginCatalogState {
  /** By `"<type>/<name>"`. */
  runtimes: Record<string, PluginRuntime>;
  /** By `"<type>/<name>"`. */
  plugins: Record<string, RegisteredPlugin>;
}

export function emptyPluginCatalog(): PluginCatalogState {
  return { runtimes: {}, plugins: {} };
}

export function catalogKey(type: string, name: string): string {
  return `${type}/${name}`;
}

/**
 * The registered plugins that name a runtime (what the delete refusal lists), in the order of their
 * storage keys, `<type>/<name>`. Any plugin naming it counts, container image or not, as in the service.
 */
export function pluginsWithRuntime(catalog: PluginCatalogState, runtime: string): string[] {
  return Object.keys(catalog.plugins)
    .sort()
    .filter((key) => catalog.plugins[key].runtime === runtime)
    .map((key) => catalog.plugins[key].name);
}

/** POST sys/plugins/runtimes/catalog/:type/:name accepted: the runtime is registered, or overwritten. */
export interface PluginRuntimeRegistered extends BaseEvent {
  type: 'plugin-runtime-registered';
  cluster: string;
  runtime: PluginRuntime;
}

/** DELETE sys/plugins/runtimes/catalog/:type/:name accepted: no registered plugin named the runtime. */
export interface PluginRuntimeDeleted extends BaseEvent {
  type: 'plugin-runtime-deleted';
  cluster: string;
  runtimeType: RuntimeType;
  name: string;
}

/** POST sys/plugins/catalog/:type/:name accepted: the plugin is registered, or its entry overwritten. */
export interface PluginRegistered extends BaseEvent {
  type: 'plugin-registered';
  cluster: string;
  plugin: RegisteredPlugin;
}

/** DELETE sys/plugins/catalog/:type/:name accepted for a registered plugin: it is removed. */
export interface PluginDeregistered extends BaseEvent {
  type: 'plugin-deregistered';
  cluster: string;
  pluginType: PluginType;
  name: string;
}

export type PluginEvent = PluginRuntimeRegistered | PluginRuntimeDeleted | PluginRegistered | PluginDeregistered;

export const pluginReducers = advancingWal({
  'plugin-runtime-registered': (d: SimState, e: PluginRuntimeRegistered) => {
    d.clusters[e.cluster].plugins.runtimes[catalogKey(e.runtime.type, e.runtime.name)] = e.runtime;
  },
  'plugin-runtime-deleted': (d: SimState, e: PluginRuntimeDeleted) => {
    delete d.clusters[e.cluster].plugins.runtimes[catalogKey(e.runtimeType, e.name)];
  },
  'plugin-registered': (d: SimState, e: PluginRegistered) => {
    d.clusters[e.cluster].plugins.plugins[catalogKey(e.plugin.type, e.plugin.name)] = e.plugin;
  },
  'plugin-deregistered': (d: SimState, e: PluginDeregistered) => {
    delete d.clusters[e.cluster].plugins.plugins[catalogKey(e.pluginType, e.name)];
  },
});
