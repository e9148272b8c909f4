// Invariant `dr-secondary-closed`: a DR secondary answers no client request outside the paths the
// service leaves open on it.
//
// The open paths are listed here from the facts file (the unauthenticated `PathsSpecial` of the DR
// secondary, the status endpoints, and the DR secondary's own generation-attempt and public-key
// endpoints; and the service's HTTP-layer handlers that answer before any replication mode is
// looked at: health, seal status, leader), not read from the router, so that a route wrongly marked
// open is caught (a test compares this list with what the routes declare). Two views:
//  - responses: a request to any other path, answered with success by a cluster that was a DR
//    secondary just before it, is a violation;
//  - the log: a KV write or delete applied on a cluster that is a DR secondary at that moment (a
//    client's write got through, whatever the response said).
import { isDrSecondaryIn, pathsWithinNamespaces, requestPath, served, stateBefore, violation } from '../../monitoring/observe.js';
import { stateless, type Finding, type Monitor, type Observation } from '../../monitoring/types.js';

/** The paths a DR secondary still answers (relative to the root namespace, no `/v1/`). */
export const DR_SECONDARY_OPEN_PATHS: readonly string[] = [
  // status: unauthenticated, and the way an operator sees a DR secondary at all
  'sys/replication/status',
  'sys/replication/dr/status',
  'sys/replication/performance/status',
  // answered by the service's HTTP layer on every node, whatever its replication mode: what
  // `vault status` and load balancers read (sys/health answers 472 there unless told otherwise)
  'sys/health',
  'sys/seal-status',
  'sys/leader',
  // the DR secondary's own calls, authorised by a DR operation token
  'sys/replication/dr/secondary/promote',
  'sys/replication/dr/secondary/disable',
  'sys/replication/dr/secondary/update-primary',
  'sys/replication/dr/secondary/operation-token/delete',
  'sys/replication/dr/secondary/reindex',
  'sys/replication/dr/secondary/merkle-check',
  'sys/replication/dr/secondary/recover',
  'sys/replication/dr/secondary/license',
  'sys/replication/dr/secondary/license/signed',
  'sys/replication/dr/secondary/license/status',
  // generating the DR operation token, and the key for sealed credentials
  'sys/replication/dr/secondary/generate-operation-token/attempt',
  'sys/replication/dr/secondary/generate-operation-token/update',
  'sys/replication/dr/secondary/generate-public-key',
  // the DR secondary's form of sys/config/reload/:subsystem (the API document lists it there)
  'sys/replication/dr/secondary/config/reload/:subsystem',
];

/** A listed path with a `:parameter` segment stands for any one segment there. */
const OPEN = DR_SECONDARY_OPEN_PATHS.map((p) => (p.includes(':') ? new RegExp(`^${p.replace(/:[a-z_]+/g, '[^/]+')}$`) : p));

export function isOpenOnDrSecondary(path: string): boolean {
  return OPEN.some((p) => (typeof p === 'string' ? p === path : p.test(path)));
}

export function drSecondaryClosed(): Monitor {
  return stateless({
    id: 'dr-secondary-closed',
    kind: 'invariant',
    description: 'a DR secondary answers no client request outside the paths the service leaves open on it',
    observe(o: Observation) {
      const findings: Finding[] = [];
      // Events already reported, by index, so that the request that appended one is not reported again.
      const flagged = new Map<number, string>();
      o.events.forEach((e, i) => {
        if ((e.type === 'kv-written' || e.type === 'kv-deleted' || e.type === 'kv-metadata-written' || e.type === 'kv-config-written') && isDrSecondaryIn(stateBefore(o, i), e.cluster)) {
          flagged.set(i, e.cluster);
          const what = e.type === 'kv-written' ? `a write to ${e.mount}${e.key}` : e.type === 'kv-deleted' ? `a delete of ${e.mount}${e.key}` : e.type === 'kv-metadata-written' ? `a metadata write to ${e.mount}${e.key}` : `a config write to ${e.mount}`;
          findings.push(violation('dr-secondary-closed', e.at, [e.cluster], `the DR secondary ${e.cluster} applied ${what}, a client request it must refuse`));
        }
      });
      let from = 0;
      for (const r of o.responses ?? []) {
        const own = [...flagged].some(([i, c]) => i >= from && i < r.eventIndex && c === r.cluster);
        from = r.eventIndex;
        if (own || !served(r.response.status) || !isDrSecondaryIn(r.before, r.cluster)) continue;
        const { method, path } = requestPath(r.request);
        if (pathsWithinNamespaces(r.before.clusters.get(r.cluster), path).some(isOpenOnDrSecondary)) continue;
        findings.push(violation('dr-secondary-closed', r.after.now, [r.cluster], `the DR secondary ${r.cluster} answered ${method} ${path} with ${r.response.status}; it must refuse it ("path disabled in replication DR secondary mode")`));
      }
      return findings;
    },
  });
}
