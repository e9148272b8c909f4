// Hazard `newer-primary`: a primary replicates to a secondary that runs an older version. The
// service documents that upstream clusters must run older versions than downstream ones (spec,
// Versioning 2): replicating from a newer version to an older one is unsafe. The hazard arises at a
// delivery (initial sync or WALs) from a primary whose version is newer than the secondary's, and
// lasts while that secondary follows that primary.
import { versionAtLeast } from '../versions.js';
import { KIND_WORD, stateAfter } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

export function newerPrimary(): Monitor {
  return newerPrimaryFrom(new Set());
}

/** The monitor that remembers the "kind|primary|secondary" pairs reported while the secondary follows that primary. */
function newerPrimaryFrom(reported: Set<string>): Monitor {
  return {
    id: 'newer-primary',
    kind: 'hazard',
    description: 'a primary replicates to a secondary that runs an older version',
    observe(o: Observation) {
      const findings: Finding[] = [];
      for (const [i, e] of o.events.entries()) {
        if (e.type !== 'replication-secondary-synced' && e.type !== 'replication-wal-delivered') continue;
        const at = stateAfter(o, i);
        const [p, s] = [at.clusters.get(e.primary), at.clusters.get(e.cluster)];
        if (!p || !s || versionAtLeast(s.version, p.version)) continue;
        const key = `${e.kind}|${e.primary}|${e.cluster}`;
        if (reported.has(key)) continue;
        reported.add(key);
        findings.push({
          kind: 'hazard',
          id: 'newer-primary',
          at: e.at,
          clusters: [e.primary, e.cluster],
          message: `${e.primary} (${p.version}) replicates ${KIND_WORD[e.kind]} data to ${e.cluster}, which runs an older version (${s.version}); upstream clusters must run the older version`,
        });
      }
      for (const key of [...reported]) {
        const [kind, primary, secondary] = key.split('|') as ['dr' | 'performance', string, string];
        const r = o.state.clusters.get(secondary)?.replication[kind];
        if (!r || r.role !== 'secondary.following' || r.primary !== primary) reported.delete(key);
      }
      return findings;
    },
    fork: () => newerPrimaryFrom(new Set(reported)),
  };
}
