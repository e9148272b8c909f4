// Invariant `filters-respected`: a performance secondary never holds data from a mount or namespace
// that its paths filter excludes, nor from a primary's local mount.
//
// The filter is the one its primary keeps for the id the secondary follows it under. The monitor
// looks at every performance secondary that follows a primary, after each delivery to it and at
// the end of every step (the service removes newly excluded data when the filter is set, so it may
// never be seen), and reports each excluded mount or namespace once while it is held.
import type { Clusters, ClusterState, SimState } from '../../core/state.js';
import { stateAfter, violation } from '../../monitoring/observe.js';
import { isOwnLocalMount, mountExcluded, namespaceExcluded } from './replica.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';
import { keyCount } from '../../core/keymap.js';
import { memoOnObject } from '../../../kernel/memo.js';

/**
 * Local mounts each cluster held as its own: "cluster|uuid" for every local mount it held while it
 * was not following a performance primary (created there, or copied by DR, which keeps uuids). A
 * performance primary never sends its local mounts, so one with the primary's uuid that the cluster
 * held before it followed is its own, whatever DR history the two share.
 */
function recordOwnLocalMounts(state: SimState, own: Set<string>): void {
  for (const c of state.clusters.list()) for (const k of ownLocalMounts(c)) own.add(k);
}

/** A cluster's own local mounts as "cluster|uuid" (none while it follows a performance primary), made once per cluster object. */
const ownLocalMounts = memoOnObject((c: ClusterState): readonly string[] => {
  const found: string[] = [];
  if (c.replication.performance.role !== 'secondary.following') for (const m of Object.values(c.storage.mounts)) if (m.local) found.push(`${c.name}|${m.uuid}`);
  return found;
});

/** What each following performance secondary holds that it must not: "secondary|path" → description. */
export function heldExcluded(state: SimState, own: ReadonlySet<string> = new Set()): Map<string, { secondary: string; primary: string; what: string }> {
  const out = new Map<string, { secondary: string; primary: string; what: string }>();
  for (const s of state.clusters.list()) {
    const r = s.replication.performance;
    if (r.role !== 'secondary.following' || r.primary === null) continue;
    const p = state.clusters.get(r.primary);
    // Only a primary of its set filters for it: a secondary that follows anything else receives nothing.
    if (!p || p.replication.performance.role !== 'primary' || p.replication.performance.clusterId !== r.clusterId) continue;
    for (const ns of Object.keys(s.storage.namespaces))
      if (namespaceExcluded(state, p.name, r.secondaryId, ns)) out.set(`${s.name}|${ns}`, { secondary: s.name, primary: p.name, what: `namespace ${ns}, which its paths filter excludes` });
    const paths = new Set([...Object.keys(s.storage.mounts), ...Object.keys(s.storage.kv).filter((m) => keyCount(s.storage.kv[m]) > 0)]);
    for (const path of paths) {
      const uuid = s.storage.mounts[path]?.local ? s.storage.mounts[path].uuid : undefined;
      if (isOwnLocalMount(p, s, path) || (uuid !== undefined && own.has(`${s.name}|${uuid}`)) || !mountExcluded(state, p.name, r.secondaryId, path)) continue;
      const why = p.storage.mounts[path]?.local ? `${p.name}'s local mount ${path}` : `mount ${path}, which its paths filter excludes`;
      out.set(`${s.name}|${path}`, { secondary: s.name, primary: p.name, what: why });
    }
  }
  return out;
}

export function filtersRespected(): Monitor {
  return filtersRespectedFrom(new Set(), new Set(), false);
}

/** The monitor that remembers what it reported, the local mounts each cluster held as its own, and whether it has read the first state. */
function filtersRespectedFrom(alreadyReported: Set<string>, own: Set<string>, startedAlready: boolean, recordedAlready: Clusters | null = null): Monitor {
  let reported = alreadyReported;
  let started = startedAlready;
  // The clusters table whose own local mounts `own` holds, while nothing was taken out of it since:
  // recording the same table again would add nothing.
  let recorded = recordedAlready;
  const record = (state: SimState) => {
    if (state.clusters === recorded) return;
    recordOwnLocalMounts(state, own);
    recorded = state.clusters;
  };
  return {
    id: 'filters-respected',
    kind: 'invariant',
    description: 'a performance secondary never holds data from a mount or namespace that its paths filter excludes, nor from a primary’s local mount',
    observe(o: Observation) {
      const findings: Finding[] = [];
      const seen = new Set<string>();
      if (!started) {
        record(o.before);
        started = true;
      }
      const look = (state: SimState, at: number) => {
        for (const [key, h] of heldExcluded(state, own)) {
          seen.add(key);
          if (reported.has(key)) continue;
          reported.add(key);
          findings.push(violation('filters-respected', at, [h.secondary, h.primary], `${h.secondary} (performance secondary of ${h.primary}) holds ${h.what}`));
        }
      };
      o.events.forEach((e, i) => {
        // Enabled as a secondary, the cluster is wiped: what it held is no longer its own.
        if (e.type === 'replication-secondary-enabled') {
          for (const k of [...own]) if (k.startsWith(`${e.cluster}|`)) own.delete(k);
          recorded = null;
        }
        if ((e.type === 'replication-secondary-synced' || e.type === 'replication-wal-delivered') && e.kind === 'performance') look(stateAfter(o, i), e.at);
        else if (e.type === 'replication-secondary-synced' || e.type === 'replication-secondary-promoted' || e.type === 'replication-secondary-enabled') record(stateAfter(o, i));
      });
      look(o.state, o.state.now);
      record(o.state);
      // An occurrence ends when the data is gone; it is reported again if it comes back.
      const ended = [...reported].filter((k) => !seen.has(k));
      if (ended.length) reported = new Set([...reported].filter((k) => seen.has(k)));
      return findings;
    },
    fork: () => filtersRespectedFrom(new Set(reported), new Set(own), started, recorded),
  };
}
