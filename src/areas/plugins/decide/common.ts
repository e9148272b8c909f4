// What the plugin catalog's decisions share. The catalog is replicated configuration: a performance
// secondary answers reads from its copy of its primary's catalog, and a change sent to it is applied
// on the primary (`configurationLanding`), checked against the primary's catalog.
import { forwardedFrom, type RequestContext } from '../../core/http/route.js';
import type { ClusterState } from '../../core/state.js';
import type { Reply } from '../../../kernel/http/http.js';
import type { PluginRuntime } from '../plugins.js';

/** The cluster a change lands on (the primary, for a performance secondary), or why it cannot be forwarded. */
export function landing(ctx: RequestContext): ClusterState | Reply {
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  return 'refuse' in l ? l.refuse : ctx.state.clusters.named(l.cluster);
}

/** `forwardedBy` for the event of a write that landed on `target` (the bus carries the forwarding: replication/messages.ts). */
export function forwarded(ctx: RequestContext, target: ClusterState): { forwardedBy?: string } {
  return forwardedFrom(ctx.cluster.name, target.name);
}

/** A runtime as the catalog shows it. */
export function runtimeView(r: PluginRuntime) {
  return { name: r.name, type: r.type, oci_runtime: r.oci_runtime, cgroup_parent: r.cgroup_parent, cpu_nanos: r.cpu_nanos, memory_bytes: r.memory_bytes, rootless: r.rootless === true };
}
