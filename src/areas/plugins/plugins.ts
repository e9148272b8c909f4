// The plugin runtime catalog of one cluster (spec area C), and the plugins registered in the plugin
// catalog, as far as they matter here: a plugin run as a container image may name a runtime, and a
// runtime cannot be removed while a registered plugin names it. The runtime machine
// (models/plugin-runtime.machine.ts) decides what a request may do to a catalog entry.
//
// Under replication (src/areas/sync/README.md): the catalog is replicated configuration. Every change
// advances the cluster's WAL, so DR secondaries mirror it (and take it up when promoted);
// performance secondaries read a copy of their primary's and forward changes to it.
import type { BaseEvent } from '../../kernel/engine.js';
import type { PluginCatalogState } from './types.js';
export * from './types.js';


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
