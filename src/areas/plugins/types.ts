// The plugin catalogs' vocabulary, state and events (no behaviour), apart from plugins.ts so that the cluster's
// state and the log's event union can name them without importing the reducers: no import cycle.
import type { BaseEvent } from '../../kernel/engine.js';

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
  /**
   * Whether the container runs rootless (the OCI runtime must support it). Kept only when true, so
   * a catalog that never used it keeps the state it always had; reads report false otherwise.
   */
  rootless?: true;
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
/** POST sys/plugins/runtimes/catalog/:type/:name accepted: the runtime is registered, or overwritten. */
export interface PluginRuntimeRegistered extends BaseEvent {
  type: 'plugin-runtime-registered';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  runtime: PluginRuntime;
}

/** DELETE sys/plugins/runtimes/catalog/:type/:name accepted: no registered plugin named the runtime. */
export interface PluginRuntimeDeleted extends BaseEvent {
  type: 'plugin-runtime-deleted';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  runtimeType: RuntimeType;
  name: string;
}

/** POST sys/plugins/catalog/:type/:name accepted: the plugin is registered, or its entry overwritten. */
export interface PluginRegistered extends BaseEvent {
  type: 'plugin-registered';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  plugin: RegisteredPlugin;
}

/** DELETE sys/plugins/catalog/:type/:name accepted for a registered plugin: it is removed. */
export interface PluginDeregistered extends BaseEvent {
  type: 'plugin-deregistered';
  cluster: string;
  /** The performance secondary the request was sent to, when it forwarded the write to this cluster, its primary (replication/forwarding.ts). */
  forwardedBy?: string;
  pluginType: PluginType;
  name: string;
}

export type PluginEvent = PluginRuntimeRegistered | PluginRuntimeDeleted | PluginRegistered | PluginDeregistered;

// The plugin catalog's part of a cluster's state and its events, declared to the core.
declare module '../core/state.js' {
  interface AreaClusterState {
    /** The plugin runtime catalog and the plugins that reference runtimes (spec area C). */
    plugins: PluginCatalogState;
  }
}
declare module '../core/events.js' {
  interface AreaEvents {
    plugins: PluginEvent;
  }
}
