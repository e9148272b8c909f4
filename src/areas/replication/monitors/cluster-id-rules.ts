// Invariant `cluster-id-rules`: demoting a primary keeps its replication `cluster_id`; disabling
// then enabling again gives a new one. The monitor reads the id around each role change, per kind:
// a demotion (and a promotion, which keeps the set as well) must leave it as it was; an enable as a
// primary must give an id the cluster never had for that kind and that no other cluster holds now,
// since every enable starts a new replication set.
import type { ReplicationKind, SimState } from '../../core/state.js';
import { KINDS, KIND_WORD, stateAfter, stateBefore, violation } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

const idOf = (state: SimState, cluster: string, kind: ReplicationKind) => state.clusters.get(cluster)?.replication[kind].clusterId ?? '';

export function clusterIdRules(): Monitor {
  return clusterIdRulesFrom(new Map(), false);
}

/**
 * The monitor that remembers every id each cluster has held, per kind ("kind|cluster" → ids), and
 * whether it has read the first state yet.
 */
function clusterIdRulesFrom(held: Map<string, Set<string>>, startedAlready: boolean): Monitor {
  let started = startedAlready;
  const remember = (kind: ReplicationKind, cluster: string, id: string) => {
    if (id === '') return;
    const k = `${kind}|${cluster}`;
    held.set(k, (held.get(k) ?? new Set()).add(id));
  };
  const rememberAll = (state: SimState) => {
    for (const c of state.clusters.list()) for (const kind of KINDS) remember(kind, c.name, c.replication[kind].clusterId);
  };

  return {
    id: 'cluster-id-rules',
    kind: 'invariant',
    description: 'demoting a primary keeps its replication `cluster_id`; disabling then enabling again gives a new one',
    observe(o: Observation) {
      if (!started) {
        rememberAll(o.before);
        started = true;
      }
      const findings: Finding[] = [];
      o.events.forEach((e, i) => {
        if (!('kind' in e) || (e.kind !== 'dr' && e.kind !== 'performance') || !('cluster' in e)) return;
        check(findings, o, i);
        // Ids adopted on the way (a secondary takes its primary's) count as held too.
        remember(e.kind, e.cluster, idOf(stateAfter(o, i), e.cluster, e.kind));
      });
      return findings;
    },
    // remember adds to the sets in place: the fork gets its own.
    fork: () => clusterIdRulesFrom(new Map([...held].map(([k, ids]) => [k, new Set(ids)])), started),
  };

  function check(findings: Finding[], o: Observation, i: number): void {
    const e = o.events[i];
    if (e.type !== 'replication-primary-demoted' && e.type !== 'replication-secondary-promoted' && e.type !== 'replication-primary-enabled') return;
    const [before, after] = [stateBefore(o, i), stateAfter(o, i)];
    const [was, now] = [idOf(before, e.cluster, e.kind), idOf(after, e.cluster, e.kind)];
    const K = KIND_WORD[e.kind];
    const report = (clusters: string[], message: string) => findings.push(violation('cluster-id-rules', e.at, clusters, message));
    if (e.type !== 'replication-primary-enabled') {
      const what = e.type === 'replication-primary-demoted' ? 'demoting' : 'promoting';
      if (was !== now) report([e.cluster], `${what} ${e.cluster} (${K}) changed its cluster_id from ${was || '""'} to ${now || '""'}; it must keep it`);
      return;
    }
    const others = after.clusters.list()
      .filter((c) => c.name !== e.cluster && now !== '' && c.replication[e.kind].clusterId === now)
      .map((c) => c.name);
    if (now === '') report([e.cluster], `${e.cluster} was enabled as a ${K} primary without a cluster_id`);
    else if (held.get(`${e.kind}|${e.cluster}`)?.has(now))
      report([e.cluster], `${e.cluster} was enabled again as a ${K} primary and kept a cluster_id it had before (${now}); re-enabling must give a new one`);
    else if (others.length) report([e.cluster, ...others], `${e.cluster} was enabled as a ${K} primary with the cluster_id of an existing set (${now}, held by ${others.join(', ')})`);
  }
}
