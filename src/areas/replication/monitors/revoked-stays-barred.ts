// Invariant `revoked-stays-barred`: a revoked secondary receives no replicated data until it is
// activated with a new token.
//
// When a primary revokes secondary `id`, the monitor bars the cluster that activated under that id
// with the token the primary knows it by. A bar lifts only when that cluster redeems a new
// activation token (secondary/enable, or update-primary with a token); update-primary with
// addresses keeps the revoked credentials and keeps the bar. Any delivery to a barred cluster (the
// initial sync, or WALs) is a violation, from whichever primary it comes.
import type { ReplicationKind, SimState } from '../../core/state.js';
import { KINDS, KIND_WORD, stateAfter, stateBefore, violation } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

interface Bar {
  /** The primary that revoked it, the id and the token (`jti`) revoked. */
  by: string;
  id: string;
  jti: string;
  reported: boolean;
}

const barKey = (kind: ReplicationKind, cluster: string) => `${kind}|${cluster}`;

/** The clusters that activated under `id` with the token the primary issued for it. */
function holdersOf(state: SimState, kind: ReplicationKind, primary: string, id: string): string[] {
  const issued = state.clusters.get(primary)?.replication[kind].issued[id];
  if (!issued) return [];
  return state.clusters.list()
    .filter((c) => {
      const r = c.replication[kind];
      return c.name !== primary && r.secondaryId === id && r.jti === issued.jti;
    })
    .map((c) => c.name);
}

export function revokedStaysBarred(): Monitor {
  return revokedStaysBarredFrom(new Map(), false);
}

/** The monitor that remembers the bars ("kind|cluster" → bar) and whether it has read the first state. */
function revokedStaysBarredFrom(bars: Map<string, Bar>, startedAlready: boolean): Monitor {
  let started = startedAlready;

  // Secondaries already revoked when the watch began are barred too.
  const learn = (state: SimState) => {
    for (const p of state.clusters.list())
      for (const kind of KINDS)
        for (const issued of Object.values(p.replication[kind].issued))
          if (issued.revoked) for (const s of holdersOf(state, kind, p.name, issued.id)) bars.set(barKey(kind, s), { by: p.name, id: issued.id, jti: issued.jti, reported: false });
  };

  return {
    id: 'revoked-stays-barred',
    kind: 'invariant',
    description: 'a revoked secondary receives no replicated data until it is activated with a new token',
    observe(o: Observation) {
      if (!started) {
        learn(o.before);
        started = true;
      }
      const findings: Finding[] = [];
      o.events.forEach((e, i) => {
        switch (e.type) {
          case 'replication-secondary-revoked':
            for (const s of holdersOf(stateBefore(o, i), e.kind, e.cluster, e.id)) {
              const jti = stateBefore(o, i).clusters.named(s).replication[e.kind].jti;
              bars.set(barKey(e.kind, s), { by: e.cluster, id: e.id, jti, reported: false });
            }
            return;
          case 'replication-secondary-enabled':
            bars.delete(barKey(e.kind, e.cluster));
            return;
          case 'replication-secondary-primary-updated': {
            const bar = bars.get(barKey(e.kind, e.cluster));
            // A new token lifts the bar; addresses (or forgetting the primary) keep the revoked credentials.
            if (bar && e.via === 'token' && e.jti !== bar.jti) bars.delete(barKey(e.kind, e.cluster));
            return;
          }
          case 'replication-secondary-synced':
          case 'replication-wal-delivered': {
            const bar = bars.get(barKey(e.kind, e.cluster));
            if (!bar) return;
            // The bar is on the revoked credentials: a cluster that now presents others (a DR copy
            // promoted takes up its primary's performance credentials) is not the revoked secondary.
            if (stateAfter(o, i).clusters.named(e.cluster).replication[e.kind].jti !== bar.jti) {
              bars.delete(barKey(e.kind, e.cluster));
              return;
            }
            if (bar.reported) return;
            bar.reported = true;
            const what = e.type === 'replication-secondary-synced' ? 'an initial sync' : `WALs up to ${e.wal}`;
            findings.push(
              violation(
                'revoked-stays-barred',
                e.at,
                [e.cluster, e.primary],
                `${e.cluster} received ${what} from ${e.primary} (${KIND_WORD[e.kind]}) after ${bar.by} revoked it (id "${bar.id}"), without being activated with a new token`,
              ),
            );
            return;
          }
        }
      });
      return findings;
    },
    // A bar's `reported` is set in place: the fork gets copies.
    fork: () => revokedStaysBarredFrom(new Map([...bars].map(([k, bar]) => [k, { ...bar }])), started),
  };
}
