// How the plugin catalog's events change the world state (evolve). The catalog is replicated
// configuration: every change advances the cluster's WAL (onReplicatedCluster), so DR secondaries mirror it.
import { onReplicatedCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import { catalogKey } from './plugins.js';
import type { PluginDeregistered, PluginRegistered, PluginRuntimeDeleted, PluginRuntimeRegistered } from './types.js';

export const pluginReducers = {
  'plugin-runtime-registered': onReplicatedCluster((c, e: PluginRuntimeRegistered) => {
    c.plugins.runtimes[catalogKey(e.runtime.type, e.runtime.name)] = e.runtime;
  }),
  'plugin-runtime-deleted': onReplicatedCluster((c, e: PluginRuntimeDeleted) => {
    delete c.plugins.runtimes[catalogKey(e.runtimeType, e.name)];
  }),
  'plugin-registered': onReplicatedCluster((c, e: PluginRegistered) => {
    c.plugins.plugins[catalogKey(e.plugin.type, e.plugin.name)] = e.plugin;
  }),
  'plugin-deregistered': onReplicatedCluster((c, e: PluginDeregistered) => {
    delete c.plugins.plugins[catalogKey(e.pluginType, e.name)];
  }),
} satisfies SimReducers;
