// Hazard `forced-promotion`: a secondary is promoted with `force` while it lacked writes its
// primary had committed. The cost is the list of lost keys (`mount/key`): every key whose record
// the primary held differently from the secondary at the moment of the promotion (written, changed
// or deleted there and not yet replicated). What the primary "had committed" is what it would send
// this secondary: all of its storage for DR, its replicated mounts through the secondary's filter
// for performance. The primary may be down: its storage is still in the state.
//
// The primary is the one the secondary followed; a secondary that follows nobody (a demoted former
// primary) is compared with the running primary of its replication set, when there is one.
import type { ClusterState, ReplicationKind, SimState } from '../../core/state.js';
import { KIND_WORD, keyName, sameRecord, stateBefore } from '../../monitoring/observe.js';
import { expectedReplica, isOwnLocalMount } from './replica.js';
import { stateless, type Finding, type Monitor, type Observation } from '../../monitoring/types.js';
import { keyNames, recordAt } from '../../core/keymap.js';

/** The primary whose writes a promoted secondary should have held, or null. */
export function primaryOf(state: SimState, kind: ReplicationKind, secondary: ClusterState): ClusterState | null {
  const r = secondary.replication[kind];
  if (r.primary !== null && state.clusters.named(r.primary)) return state.clusters.named(r.primary);
  if (r.clusterId === '') return null;
  return state.clusters.list().find((c) => c.name !== secondary.name && c.replication[kind].role === 'primary' && c.replication[kind].clusterId === r.clusterId) ?? null;
}

/** The keys the primary holds differently from the secondary (what a promotion now would lose), sorted. */
export function lostKeys(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState): string[] {
  const sent = kind === 'dr' ? primary.storage : expectedReplica(kind, primary, secondary);
  const held = secondary.storage;
  const lost: string[] = [];
  for (const mount of new Set([...Object.keys(sent.kv), ...Object.keys(held.kv)])) {
    // The secondary's own local mounts are not the primary's to send.
    if (kind !== 'dr' && isOwnLocalMount(primary, secondary, mount)) continue;
    const [x, h] = [sent.kv[mount], held.kv[mount]];
    if (x === h) continue;
    for (const key of new Set([...keyNames(x), ...keyNames(h)])) if (!sameRecord(recordAt(x, key), recordAt(h, key))) lost.push(keyName(mount, key));
  }
  return lost.sort();
}

export function forcedPromotion(): Monitor {
  return stateless({
    id: 'forced-promotion',
    kind: 'hazard',
    description: 'a secondary is promoted with `force` while it lacked writes its primary had committed; the report lists the lost keys',
    observe(o: Observation) {
      const findings: Finding[] = [];
      o.events.forEach((e, i) => {
        if (e.type !== 'replication-secondary-promoted' || !e.force) return;
        const before = stateBefore(o, i);
        const s = before.clusters.get(e.cluster);
        const p = s ? primaryOf(before, e.kind, s) : null;
        if (!s || !p) return;
        const lost = lostKeys(e.kind, p, s);
        if (!lost.length) return;
        const shown = lost.length > 10 ? `${lost.slice(0, 10).join(', ')} and ${lost.length - 10} more` : lost.join(', ');
        findings.push({
          kind: 'hazard',
          id: 'forced-promotion',
          at: e.at,
          clusters: [e.cluster, p.name],
          message: `${e.cluster} was promoted to ${KIND_WORD[e.kind]} primary with force while it lacked ${lost.length} write${lost.length === 1 ? '' : 's'} ${p.name} had committed: ${shown} ${lost.length === 1 ? 'is' : 'are'} lost`,
          lostKeys: lost,
        });
      });
      return findings;
    },
  });
}
