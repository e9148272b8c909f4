// How the plugin catalog's events change the world state (evolve). The catalog is replicated
// configuration: every change advances the cluster's WAL (advancingWal), so DR secondaries mirror it.
import type { SimDraft } from '../core/draft.js';
import { advancingWal } from '../sync/replicated-config.js';
import { catalogKey } from './plugins.js';
import type { PluginDeregistered, PluginRegistered, PluginRuntimeDeleted, PluginRuntimeRegistered } from './types.js';

export const pluginReducers = advancingWal({
  'plugin-runtime-registered': (d: SimDraft, e: PluginRuntimeRegistered) => {
    d.clusters[e.cluster].plugins.runtimes[catalogKey(e.runtime.type, e.runtime.name)] = e.runtime;
  },
  'plugin-runtime-deleted': (d: SimDraft, e: PluginRuntimeDeleted) => {
    delete d.clusters[e.cluster].plugins.runtimes[catalogKey(e.runtimeType, e.name)];
  },
  'plugin-registered': (d: SimDraft, e: PluginRegistered) => {
    d.clusters[e.cluster].plugins.plugins[catalogKey(e.plugin.type, e.plugin.name)] = e.plugin;
  },
  'plugin-deregistered': (d: SimDraft, e: PluginDeregistered) => {
    delete d.clusters[e.cluster].plugins.plugins[catalogKey(e.pluginType, e.name)];
  },
});
