// Hazard `unauthenticated-ceremony-open`: a DR secondary was promoted while its server configuration
// served the DR operation token's generation without a token (`enable_unauthenticated_access`
// listing `generate-operation-token`: the break-glass path of 2.x), and the setting is still there
// a step after the promotion. The service's documentation: "turn on the setting, generate a DR
// operation token with no Vault token, promote the surviving DR secondary, and turn the setting
// off"; left on, anyone who reaches the new primary's API can start and cancel generation attempts
// again (CVE-2026-5807, the reason the token became necessary). It is read from the log alone: the
// reload events and the promotions.
import type { SimState } from '../../core/state.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

const FAMILY = 'generate-operation-token';

export function unauthenticatedCeremonyOpen(): Monitor {
  return ceremonyFrom(new Map(), new Map());
}

/** The monitor that knows which clusters have the family open and which were promoted with it open (and when). */
function ceremonyFrom(open: Map<string, boolean>, promotedOpen: Map<string, number>): Monitor {
  const learn = (state: SimState) => {
    for (const c of state.clusters.list()) if (!open.has(c.name)) open.set(c.name, c.serverConfig?.enableUnauthenticatedAccess.includes(FAMILY) === true);
  };
  return {
    id: 'unauthenticated-ceremony-open',
    kind: 'hazard',
    description: 'a DR secondary promoted by the break-glass path keeps enable_unauthenticated_access open after the promotion',
    observe(o: Observation) {
      learn(o.before);
      // Promotions of earlier steps are judged at the end of this one; this step's, at the next.
      const judged = [...promotedOpen.keys()];
      const fresh: string[] = [];
      for (const e of o.events) {
        if (e.type === 'server-config-reloaded') open.set(e.cluster, e.enableUnauthenticatedAccess.includes(FAMILY));
        if (e.type === 'replication-secondary-promoted' && e.kind === 'dr' && open.get(e.cluster) === true && !promotedOpen.has(e.cluster)) {
          promotedOpen.set(e.cluster, e.at);
          fresh.push(e.cluster);
        }
      }
      const findings: Finding[] = [];
      for (const cluster of judged) {
        if (fresh.includes(cluster)) continue;
        promotedOpen.delete(cluster);
        if (open.get(cluster) !== true) continue;
        findings.push({
          kind: 'hazard',
          id: 'unauthenticated-ceremony-open',
          at: o.state.now,
          clusters: [cluster],
          message: `${cluster} was promoted by the break-glass path (enable_unauthenticated_access lists ${FAMILY}) and the setting is still on after it: anyone who reaches its API can start or cancel DR operation token generation without a token; remove it and reload`,
        });
      }
      return findings;
    },
    fork: () => ceremonyFrom(new Map(open), new Map(promotedOpen)),
  };
}
