// Invariant `one-generation-attempt`: a cluster never has two operation-token (or root-token)
// generation attempts at once.
//
// The monitor follows each cluster's attempt through the log: one opens at `generation-started`
// and ends when it completes or is cancelled. Another opening while one is open is a violation, as
// is a start request (DR or root) that was answered with success while the cluster had an attempt
// in progress. After every step it takes the cluster's attempt as the state holds it, so an attempt
// that ended by other means (a wipe) does not count as open.
import { isAttemptStarted } from '../../../../models/generation-attempt.machine.js';
import type { SimState } from '../../core/state.js';
import { requestPath, served, violation } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

/** The paths that open an attempt (POST or PUT). */
export const ATTEMPT_PATHS = ['sys/replication/dr/secondary/generate-operation-token/attempt', 'sys/generate-root/attempt'];

function openAttempts(state: SimState): Map<string, string> {
  const open = new Map<string, string>();
  for (const c of state.clusters.list()) if (isAttemptStarted(c.generation)) open.set(c.name, c.generation.context.nonce);
  return open;
}

export function oneGenerationAttempt(): Monitor {
  return oneGenerationAttemptFrom(null);
}

/** The monitor that remembers these open attempts (null: it has seen nothing yet). */
function oneGenerationAttemptFrom(remembered: Map<string, string> | null): Monitor {
  let open = remembered;
  return {
    id: 'one-generation-attempt',
    kind: 'invariant',
    description: 'a cluster never has two operation-token (or root-token) generation attempts at once',
    observe(o: Observation) {
      const findings: Finding[] = [];
      open ??= openAttempts(o.before);
      // Clusters already reported from the log, so a request is not reported twice.
      const flagged = new Set<string>();
      for (const e of o.events) {
        if (e.type === 'generation-started') {
          const already = open.get(e.cluster);
          if (already !== undefined) {
            flagged.add(e.cluster);
            findings.push(violation('one-generation-attempt', e.at, [e.cluster], `${e.cluster} opened a second generation attempt (nonce ${e.nonce}) while attempt ${already} was still in progress`));
          }
          open.set(e.cluster, e.nonce);
        } else if (e.type === 'generation-completed' || e.type === 'generation-cancelled') {
          open.delete(e.cluster);
        }
      }
      for (const r of o.responses ?? []) {
        const { method, path } = requestPath(r.request);
        if ((method !== 'POST' && method !== 'PUT') || !ATTEMPT_PATHS.includes(path) || !served(r.response.status)) continue;
        const c = r.before.clusters.get(r.cluster);
        if (c && isAttemptStarted(c.generation) && !flagged.has(r.cluster))
          findings.push(
            violation('one-generation-attempt', r.after.now, [r.cluster], `${r.cluster} accepted a new generation attempt (${path}) while attempt ${c.generation.context.nonce} was in progress`),
          );
      }
      open = openAttempts(o.state);
      return findings;
    },
    // observe changes the map in place: the fork gets its own.
    fork: () => oneGenerationAttemptFrom(open && new Map(open)),
  };
}
