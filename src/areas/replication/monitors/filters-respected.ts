// Invariant `filters-respected`: a performance secondary never holds data from a mount or namespace
// that its paths filter excludes, nor from a primary's local mount.
//
// The filter is the one its primary keeps for the id the secondary follows it under. The monitor
// looks at every performance secondary that follows a primary, after each delivery to it and at
// the end of every step (the service removes newly excluded data when the filter is set, so it may
// never be seen), and reports each excluded mount or namespace once while it is held.
import type { SimState } from '../../cluster/state.js';
import { stateAfter, violation } from '../../../check/observe.js';
import { isOwnLocalMount, mountExcluded, namespaceExcluded } from './replica.js';
import type { Finding, Monitor, Observation } from '../../../check/types.js';

/** What each following performance secondary holds that it must not: "secondary|path" → description. */
export function heldExcluded(state: SimState): Map<string, { secondary: string; primary: string; what: string }> {
  const out = new Map<string, { secondary: string; primary: string; what: string }>();
  for (const s of Object.values(state.clusters)) {
    const r = s.replication.performance;
    if (r.role !== 'secondary.following' || r.primary === null) continue;
    const p = state.clusters[r.primary];
    if (!p) continue;
    for (const ns of Object.keys(s.storage.namespaces))
      if (namespaceExcluded(state, p.name, r.secondaryId, ns)) out.set(`${s.name}|${ns}`, { secondary: s.name, primary: p.name, what: `namespace ${ns}, which its paths filter excludes` });
    const paths = new Set([...Object.keys(s.storage.mounts), ...Object.keys(s.storage.kv).filter((m) => Object.keys(s.storage.kv[m]).length > 0)]);
    for (const path of paths) {
      if (isOwnLocalMount(p, s, path) || !mountExcluded(state, p.name, r.secondaryId, path)) continue;
      const why = p.storage.mounts[path]?.local ? `${p.name}'s local mount ${path}` : `mount ${path}, which its paths filter excludes`;
      out.set(`${s.name}|${path}`, { secondary: s.name, primary: p.name, what: why });
    }
  }
  return out;
}

export function filtersRespected(): Monitor {
  let reported = new Set<string>();
  return {
    id: 'filters-respected',
    kind: 'invariant',
    description: 'a performance secondary never holds data from a mount or namespace that its paths filter excludes, nor from a primary’s local mount',
    observe(o: Observation) {
      const findings: Finding[] = [];
      const seen = new Set<string>();
      const look = (state: SimState, at: number) => {
        for (const [key, h] of heldExcluded(state)) {
          seen.add(key);
          if (reported.has(key)) continue;
          reported.add(key);
          findings.push(violation('filters-respected', at, [h.secondary, h.primary], `${h.secondary} (performance secondary of ${h.primary}) holds ${h.what}`));
        }
      };
      o.events.forEach((e, i) => {
        if ((e.type === 'replication-secondary-synced' || e.type === 'replication-wal-delivered') && e.kind === 'performance') look(stateAfter(o, i), e.at);
      });
      look(o.state, o.state.now);
      // An occurrence ends when the data is gone; it is reported again if it comes back.
      const ended = [...reported].filter((k) => !seen.has(k));
      if (ended.length) reported = new Set([...reported].filter((k) => seen.has(k)));
      return findings;
    },
  };
}
