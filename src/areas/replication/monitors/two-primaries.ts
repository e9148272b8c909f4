// Hazard `two-primaries`: two running clusters of one replication set are primaries at once.
// A replication set shares its `cluster_id`: secondaries adopt their primary's on activation, a
// demotion or promotion keeps it, and disable-then-enable draws a new one (a new set). So clusters
// that are primaries with the same id, per kind, are primaries of one set.
import { modeOf } from '../../../../models/replication-role.machine.js';
import type { ReplicationKind, SimState } from '../../core/state.js';
import { isUp } from '../../../kernel/network.js';
import type { Finding, Monitor } from '../../monitoring/types.js';

/** Running primaries of each replication set with more than one, as "kind|cluster_id" → names. */
export function primariesBySet(state: SimState): Map<string, string[]> {
  const sets = new Map<string, string[]>();
  for (const c of state.clusters.list()) {
    if (!isUp(state.network, c.name)) continue;
    for (const kind of ['dr', 'performance'] as ReplicationKind[]) {
      const r = c.replication[kind];
      if (modeOf(r.role) !== 'primary' || r.clusterId === '') continue;
      const key = `${kind}|${r.clusterId}`;
      sets.set(key, [...(sets.get(key) ?? []), c.name]);
    }
  }
  for (const [k, names] of sets) if (names.length < 2) sets.delete(k);
  return sets;
}

export function twoPrimaries(): Monitor {
  return twoPrimariesFrom(new Set());
}

/** The monitor that remembers the sets already reported while the condition lasts, so one occurrence is one finding. */
function twoPrimariesFrom(alreadyReported: ReadonlySet<string>, lastSeen: Pick<SimState, 'clusters' | 'network'> | null = null): Monitor {
  let reported = alreadyReported;
  // What the sets were last read from: the sets are a function of the clusters and the network, so
  // while both are the same objects (a wait, a read, a refusal) they are the sets already reported.
  let seen = lastSeen;
  return {
    id: 'two-primaries',
    kind: 'hazard',
    description: 'two running (not crashed) clusters of one replication set are primaries at the same instant',
    observe({ state }) {
      if (seen && seen.clusters === state.clusters && seen.network === state.network) return [];
      seen = { clusters: state.clusters, network: state.network };
      const now = primariesBySet(state);
      const findings: Finding[] = [];
      const current = new Set<string>();
      for (const [key, names] of now) {
        const sig = key + '|' + names.sort().join(',');
        current.add(sig);
        if (reported.has(sig)) continue;
        const kind = key.split('|')[0] === 'dr' ? 'DR' : 'performance';
        findings.push({ kind: 'hazard', id: 'two-primaries', at: state.now, clusters: names, message: `${names.join(' and ')} are both ${kind} primaries of one replication set` });
      }
      reported = current;
      return findings;
    },
    // observe replaces the set, never changes it: the fork may share it.
    fork: () => twoPrimariesFrom(reported, seen),
  };
}
