// Noticing that a link dropped: a secondary notices at once that its link to its primary went down
// (a partition, a crash, a revocation, its primary demoted or re-enabled as another set) and records
// it (`replication-secondary-disconnected`, the connection machine's `observe`). Nothing polls for
// it: every event that may break a link (a fault, a change to a primary's or a secondary's
// replication) schedules a check of the links it touches on the bus's due-time queue (messages.ts,
// `check`), and `checkLink` looks at that one link when the check falls due. Everything else a link
// does is a message on the bus (shipping.ts): the connection attempt, the merkle sync and the WALs.
//
// A crash is another matter: a connection belongs to the two processes it joins, so a crash ends
// every connection of the crashed cluster at once (its own as a secondary, and those of the
// secondaries following it), whatever the network does next — a restart in the same instant does
// not bring them back. Which connections a crash ends is decided when it is recorded
// (`connectionsEndedBy`: the connection machine's `lost` row, asked of each): the event lists them,
// and `withConnectionsLost` applies that row to each. Each secondary then dials again (messages.ts).
import type { Checker } from '../../kernel/bus.js';
import type { Answer, ReducerTable, Touch } from '../../kernel/engine.js';
import type { ClusterCrashed } from '../../kernel/network.js';
import type { SimEvent } from '../core/events.js';
import type { ReplicationKind, SimState } from '../core/state.js';
import { clustersChanged, editCluster, followedBy } from '../core/reduce.js';
import { observeConnection, stepConnection } from '../../../models/secondary-connection.machine.js';
import { followingIndex, linkFacts, moveConnection, storedConnection } from './link.js';
import { REPLICATION_KINDS } from '../core/vocabulary.js';

/** The check of one secondary's link ("link:dr:west"): the link dropped now, or nothing. */
export const checkLink: Checker<SimState, SimEvent> = (state, key, at) => {
  const [, kind, name] = key.split(':') as [string, ReplicationKind, string];
  const secondary = state.clusters.get(name);
  const r = secondary?.replication[kind];
  if (!r || r.role !== 'secondary.following' || r.primary === null || !r.connected) return [];
  // The connection machine decides, on the link's facts now.
  const now = observeConnection(storedConnection(r), linkFacts(state, kind, secondary));
  if (now.state !== 'transient_failure') return [];
  return [{ type: 'replication-secondary-disconnected', at, kind, cluster: name, primary: r.primary, reason: now.reason! }];
};

/**
 * The connections a crash of `crashed` ends, as the crash event lists them ("dr:west"): its own (it
 * follows a primary) and those of the secondaries following it, each one the connection machine
 * takes `lost` in (an idle or closed connection has nothing to lose). By kind, in name order.
 */
export function connectionsEndedBy(state: SimState, crashed: string): string[] {
  const out: string[] = [];
  const index = followingIndex(state.clusters);
  for (const kind of REPLICATION_KINDS) {
    const names = new Set(index[kind].get(crashed) ?? []);
    const own = state.clusters.get(crashed)?.replication[kind];
    if (own?.role === 'secondary.following' && own.primary !== null) names.add(crashed);
    for (const name of [...names].sort()) {
      const r = state.clusters.named(name).replication[kind];
      if (stepConnection(storedConnection(r), { type: 'lost' }) !== null) out.push(`${kind}:${name}`);
    }
  }
  return out;
}

function loseConnections(s: SimState, e: ClusterCrashed): Answer<SimState> | null {
  if (!Array.isArray(e.ended)) throw new Error(`replication log is inconsistent: the crash of ${e.cluster} lists no connections it ended (a history of an older replsim?)`);
  let clusters = s.clusters;
  const touched: Touch[] = [];
  for (const id of e.ended) {
    const [kind, secondary] = id.split(':') as [ReplicationKind, string];
    // The crash ends the connection (the machine's `lost` row, which the event names): no heartbeat
    // crosses it from then on (heartbeats.ts).
    clusters = editCluster(clusters, secondary, (c) => moveConnection(c, kind, { type: 'lost' }, e.at, touched));
  }
  return clustersChanged(s, clusters, touched);
}

/** The world's reducers, a crash also ending the connections it ends (see the head of this file). */
export function withConnectionsLost(table: ReducerTable<SimState, SimEvent>): ReducerTable<SimState, SimEvent> {
  return { ...table, 'cluster-crashed': followedBy(table, 'cluster-crashed', (_before, after, e: ClusterCrashed) => loseConnections(after, e)) } as ReducerTable<SimState, SimEvent>;
}
