// The logged facts a connection's heartbeats follow from, kept on the secondary's replication record
// (heartbeats.ts reads them): beside the connection's start and end (`connectedAt`, `disconnectedAt`,
// recorded by link.ts `storeConnection`), two upkeeps of the world's reducers, each on an event the
// log holds anyway — so no heartbeat is ever an event of its own:
//
// - a `slow` or a `heal` that changes the latency of a link a connection runs over records where its
//   heartbeats stood at that instant (`heartbeats`, an anchor): the round trip under way keeps the
//   latency it left with, the next ones take the new one;
// - a crash makes the crashed end forget the heartbeats it had heard over its connections
//   (`heartbeatsForgotten`): a restarted cluster reports none until its new connection's handshake.
//
// A replay folds the same events through the same upkeeps, so it rebuilds the same facts.
import type { ReducerTable } from '../../kernel/engine.js';
import { linkKey, linkLatency, type ClusterCrashed, type LinksHealed, type LinksSlowed } from '../../kernel/network.js';
import type { SimEvent } from '../core/events.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import { clustersChanged, editCluster, followedBy } from '../core/reduce.js';
import { REPLICATION_KINDS } from '../core/vocabulary.js';
import { anchorAt, handshake, type HeartbeatAnchor, type HeartbeatLink } from './heartbeats.js';
import { followingIndex, isConnected } from './link.js';
import type { ReplicationState } from './state.js';

/**
 * The heartbeats of a secondary's latest connection as the state gives them (heartbeats.ts), or null
 * when it has none with the primary it follows now. A connection the state still records as up
 * whose link is down now (a fault at this very instant, whose check has not been taken yet) ends now.
 */
export function heartbeatLink(state: SimState, kind: ReplicationKind, secondary: ClusterState): HeartbeatLink | null {
  const r = secondary.replication[kind];
  if (r.connectedAt === null || r.primary === null) return null;
  const latencyMs = linkLatency(state.network, secondary.name, r.primary);
  const anchor = r.heartbeats?.connectedAt === r.connectedAt ? r.heartbeats : handshake(r.connectedAt, latencyMs);
  const endedAt = r.disconnectedAt ?? (r.connected && isConnected(state, kind, secondary) ? null : state.now);
  return { anchor, latencyMs, endedAt };
}

/** Which ends of a secondary's latest connection forgot its heartbeats in a crash: nothing, or the side(s). */
export function forgotten(r: ReplicationState): 'primary' | 'secondary' | 'both' | null {
  return r.heartbeatsForgotten?.connectedAt === r.connectedAt ? r.heartbeatsForgotten.by : null;
}

/** The names following a primary or followed by a cluster over the links a network event touches (every link: null). */
function touchedLinks(e: LinksSlowed | LinksHealed): Set<string> | null {
  return e.links === 'all' ? null : new Set(e.links.map(([a, b]) => linkKey(a, b)));
}

/**
 * The anchors a change of links' latencies records (`before`: the state before the event, `after`: the
 * network's reducer applied): for each connection, ended or not, over a link whose latency changed.
 */
function anchorLatencyChanges(before: SimState, after: SimState, e: LinksSlowed | LinksHealed): Partial<SimState> | null {
  const links = touchedLinks(e);
  const anchors: [string, ReplicationKind, HeartbeatAnchor][] = [];
  for (const name of [...before.clusters.names].sort()) {
    const was = before.clusters.named(name);
    for (const kind of REPLICATION_KINDS) {
      const r = was.replication[kind];
      if (r.connectedAt === null || r.primary === null) continue;
      if (links !== null && !links.has(linkKey(name, r.primary))) continue;
      if (linkLatency(before.network, name, r.primary) === linkLatency(after.network, name, r.primary)) continue;
      // An ended connection's heartbeats are all known by now: the anchor keeps them past the change.
      anchors.push([name, kind, anchorAt(heartbeatLink(before, kind, was)!, e.at)]);
    }
  }
  if (anchors.length === 0) return null;
  let clusters = after.clusters;
  for (const [name, kind, anchor] of anchors)
    clusters = editCluster(clusters, name, (c) => {
      c.replication[kind].heartbeats = anchor;
    });
  return clustersChanged(after, clusters);
}

/** The crashed cluster forgets the heartbeats it heard, as a secondary and as the primary of its followers (read from the state the crash's reducer left: roles and primaries stand). */
function forgetOnCrash(_before: SimState, after: SimState, e: ClusterCrashed): Partial<SimState> | null {
  let clusters = after.clusters;
  const forget = (name: string, kind: ReplicationKind, side: 'primary' | 'secondary') =>
    (clusters = editCluster(clusters, name, (c) => {
      const r = c.replication[kind];
      if (r.connectedAt === null) return;
      const had = forgotten(r);
      r.heartbeatsForgotten = { connectedAt: r.connectedAt, by: had === null || had === side ? side : 'both' };
    }));
  for (const kind of REPLICATION_KINDS) {
    const own = after.clusters.get(e.cluster)?.replication[kind];
    if (own?.role === 'secondary.following' && own.primary !== null) forget(e.cluster, kind, 'secondary');
    for (const name of followingIndex(after.clusters)[kind].get(e.cluster) ?? []) if (name !== e.cluster) forget(name, kind, 'primary');
  }
  return clustersChanged(after, clusters);
}

/** The world's reducers with the heartbeats' facts kept (see the head of this file). */
export function withHeartbeatFacts(table: ReducerTable<SimState, SimEvent>): ReducerTable<SimState, SimEvent> {
  return {
    ...table,
    'links-slowed': followedBy(table, 'links-slowed', anchorLatencyChanges),
    'links-healed': followedBy(table, 'links-healed', anchorLatencyChanges),
    'cluster-crashed': followedBy(table, 'cluster-crashed', forgetOnCrash),
  } as ReducerTable<SimState, SimEvent>;
}
