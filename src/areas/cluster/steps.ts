// The cluster's own scenario step: `reload`, which edits a cluster's server configuration and sends
// it SIGHUP. Its one setting is `enable_unauthenticated_access` (2.x, and 1.19.17 on): the endpoint
// families that answer without a token (README of src/areas/core, "Versions").
import { z } from 'zod/v4';
import { declareStep, WorldUsageError } from '../core/steps.js';
import { hasUnauthenticatedAccessSetting, UNAUTHENTICATED_FAMILIES } from '../core/version-rules.js';

/** `reload`: edit a cluster's server configuration and send it SIGHUP. */
export interface ReloadStep {
  kind: 'reload';
  name?: string;
  on: string;
  enableUnauthenticatedAccess: string[];
}

declare module '../core/steps.js' {
  interface AreaSteps {
    reload: ReloadStep;
  }
}

export const reloadStep = declareStep({
  action: 'reload',
  describe: "Edit the cluster's server configuration and reload it (SIGHUP).",
  content: ({ strictObject, clusterRef }) =>
    strictObject('reload', {
      on: clusterRef,
      enableUnauthenticatedAccess: z
        .array(z.enum(UNAUTHENTICATED_FAMILIES))
        .default([])
        .describe('enable_unauthenticated_access after the reload ([]: the default, every family needs a token).'),
    }),
  fields: (c: { on: string; enableUnauthenticatedAccess: string[] }) => ({ on: c.on, enableUnauthenticatedAccess: c.enableUnauthenticatedAccess }),
  clusterKey: 'on',
  title: (s) =>
    s.enableUnauthenticatedAccess.length
      ? `reload ${s.on}'s server configuration: enable_unauthenticated_access = [${s.enableUnauthenticatedAccess.join(', ')}]`
      : `reload ${s.on}'s server configuration: enable_unauthenticated_access unset`,
  apply(world, s) {
    const { version } = world.cluster(s.on);
    const bad = s.enableUnauthenticatedAccess.find((f) => !(UNAUTHENTICATED_FAMILIES as readonly string[]).includes(f));
    if (bad !== undefined) throw new WorldUsageError(`reload: "${bad}" is not an endpoint family enable_unauthenticated_access takes (${UNAUTHENTICATED_FAMILIES.join(', ')})`);
    if (s.enableUnauthenticatedAccess.length && !hasUnauthenticatedAccessSetting(version))
      throw new WorldUsageError(`reload: ${s.on} runs ${version}, which has no enable_unauthenticated_access (2.0.0 and 1.19.17 on)`);
    world.append({ type: 'server-config-reloaded', at: world.state.now, cluster: s.on, enableUnauthenticatedAccess: [...new Set(s.enableUnauthenticatedAccess)].sort() });
  },
});
