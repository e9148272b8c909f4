// Invariant `wipe-on-enable`: once a cluster is enabled as a secondary (DR or performance), nothing
// it stored before is readable there, ever again.
//
// At each enable the monitor remembers every readable KV version the cluster held just before
// (mount, key, version number, creation time and data). Right after the enable none may be left;
// later, one may only come back if it came from a primary: a version that a primary the cluster
// followed held at a delivery (or a write the cluster took itself after the enable) is no longer
// "what it stored before" and is forgotten. Anything else readable there that matches is a
// violation, reported once per key.
import type { SimState } from '../../core/state.js';
import { keyName, readableVersions, stateAfter, stateBefore, violation } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';
import { keyEntries, recordAt } from '../../core/keymap.js';

/** The remembered versions of one cluster: "mount\0key" → fingerprints of its readable versions. */
type Remembered = Map<string, Set<string>>;

function readableOn(state: SimState, cluster: string): Remembered {
  const out: Remembered = new Map();
  const c = state.clusters.get(cluster);
  for (const [mount, keys] of Object.entries(c?.storage.kv ?? {}))
    for (const [key, rec] of keyEntries(keys)) {
      const fps = readableVersions(mount, key, rec);
      if (fps.length) out.set(`${mount}\u0000${key}`, new Set(fps));
    }
  return out;
}

/** The remembered versions the cluster can read in this state, by key. */
function stillReadable(state: SimState, cluster: string, pre: Remembered): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const c = state.clusters.get(cluster);
  if (!c) return found;
  for (const [mk, fps] of pre) {
    const [mount, key] = mk.split('\u0000');
    const hits = readableVersions(mount, key, recordAt(c.storage.kv[mount], key)).filter((fp) => fps.has(fp));
    if (hits.length) found.set(mk, hits);
  }
  return found;
}

/** Forgets remembered versions that the cluster now holds legitimately (a primary sent them, or it wrote them again). */
function forget(pre: Remembered, state: SimState, source: string, mount?: string, key?: string): void {
  const c = state.clusters.get(source);
  if (!c) return;
  for (const [mk, fps] of [...pre]) {
    const [m, k] = mk.split('\u0000');
    if ((mount !== undefined && m !== mount) || (key !== undefined && k !== key)) continue;
    for (const fp of readableVersions(m, k, recordAt(c.storage.kv[m], k))) fps.delete(fp);
    if (fps.size === 0) pre.delete(mk);
  }
}

export function wipeOnEnable(): Monitor {
  return wipeOnEnableFrom(new Map(), new Map());
}

/**
 * The monitor that remembers, per cluster, the versions it held before an enable, and the keys
 * already reported (so one resurrection is one finding).
 */
function wipeOnEnableFrom(remembered: Map<string, Remembered>, reported: Map<string, Set<string>>): Monitor {

  const report = (findings: Finding[], cluster: string, at: number, hits: Map<string, string[]>, when: string) => {
    const seen = reported.get(cluster) ?? new Set<string>();
    reported.set(cluster, seen);
    const fresh = [...hits.keys()].filter((mk) => !seen.has(mk));
    if (!fresh.length) return;
    fresh.forEach((mk) => seen.add(mk));
    const names = fresh.map((mk) => keyName(...(mk.split('\u0000') as [string, string])));
    findings.push(violation('wipe-on-enable', at, [cluster], `${cluster} ${when} still reads what it stored before it was enabled as a secondary: ${names.join(', ')}`));
  };

  return {
    id: 'wipe-on-enable',
    kind: 'invariant',
    description: 'once a cluster is enabled as a secondary, nothing it stored before is readable there, ever again',
    observe(o: Observation) {
      const findings: Finding[] = [];
      o.events.forEach((e, i) => {
        if (e.type === 'replication-secondary-enabled') {
          // Everything readable before this enable joins what an earlier enable remembered.
          const pre = remembered.get(e.cluster) ?? new Map();
          for (const [mk, fps] of readableOn(stateBefore(o, i), e.cluster)) pre.set(mk, new Set([...(pre.get(mk) ?? []), ...fps]));
          remembered.set(e.cluster, pre);
          reported.delete(e.cluster);
          // The wipe is immediate: nothing remembered may survive the enable itself, whatever the primary holds.
          report(findings, e.cluster, e.at, stillReadable(stateAfter(o, i), e.cluster, pre), `right after the enable`);
          return;
        }
        if ((e.type === 'replication-secondary-synced' || e.type === 'replication-wal-delivered') && remembered.has(e.cluster)) {
          // What the primary held when it sent this is the secondary's own data from now on.
          forget(remembered.get(e.cluster)!, stateBefore(o, i), e.primary);
          return;
        }
        if (e.type === 'kv-written' && remembered.has(e.cluster)) forget(remembered.get(e.cluster)!, stateAfter(o, i), e.cluster, e.mount, e.key);
      });
      for (const [cluster, pre] of remembered) {
        if (pre.size === 0) continue;
        report(findings, cluster, o.state.now, stillReadable(o.state, cluster, pre), `at ${o.state.now} ms`);
      }
      return findings;
    },
    // forget and report change the maps and sets in place, at every level: the fork gets its own.
    fork: () =>
      wipeOnEnableFrom(
        new Map([...remembered].map(([cluster, pre]) => [cluster, new Map([...pre].map(([mk, fps]) => [mk, new Set(fps)]))])),
        new Map([...reported].map(([cluster, keys]) => [cluster, new Set(keys)])),
      ),
  };
}
