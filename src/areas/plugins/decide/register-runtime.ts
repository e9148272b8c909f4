// POST sys/plugins/runtimes/catalog/container/:name: registers or updates a container runtime (the
// plugin-runtime machine's register row).
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { reply } from '../../../kernel/http/http.js';
import type { PluginRuntime, PluginRuntimeRegistered } from '../plugins.js';
import { pluginRefusals as P } from '../refusals.js';
import { forwarded, landing } from './common.js';

export const fields = {
  oci_runtime: { type: 'string', default: '' },
  cgroup_parent: { type: 'string', default: '' },
  cpu_nanos: { type: 'int', default: 0 },
  memory_bytes: { type: 'int', default: 0 },
  rootless: { type: 'bool', default: false },
} as const satisfies Record<string, FieldSpec>;

export function decide(ctx: RequestContext<typeof fields>): Outcome {
  const { oci_runtime, cgroup_parent, cpu_nanos, memory_bytes } = ctx.fields;
  if (cpu_nanos < 0) return P.negativeCpu();
  if (memory_bytes < 0) return P.negativeMemory();
  const target = landing(ctx);
  if ('kind' in target) return target;
  // Stored as given: an empty `oci_runtime` means the default, runsc, and reads back empty.
  const runtime: PluginRuntime = { name: ctx.params.name, type: 'container', oci_runtime, cgroup_parent, cpu_nanos, memory_bytes, ...(ctx.fields.rootless ? { rootless: true as const } : {}) };
  const event: PluginRuntimeRegistered = { type: 'plugin-runtime-registered', at: ctx.now, cluster: target.name, runtime, ...forwarded(ctx, target) };
  return { events: [event], reply: () => reply.empty() };
}
