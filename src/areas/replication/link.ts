// The link between a secondary and its primary, over the simulated network: which cluster answers
// at an address, whether the link can carry replication now, and who follows a primary. The status
// record and the streaming process both read these, so what status shows is what streaming does.
import { reachable } from '../../kernel/network.js';
import {
  IDLE_CONNECTION,
  SHUTDOWN_CONNECTION,
  linkDownReason,
  observeConnection,
  recordedMove,
  stepConnection,
  type Connection,
  type ConnectionEvent,
  type LinkDownReason,
  type LinkFacts,
} from '../../../models/secondary-connection.machine.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import type { ReplicationState } from './state.js';
import type { Derived } from '../core/cluster-table.js';
import { REPLICATION_KINDS } from '../core/vocabulary.js';
import { sameAddress } from './address.js';
import { linkTouched } from './touched.js';
import type { Touch } from '../../kernel/engine.js';

/**
 * The secondary's redial schedule while its primary is down (a dial dropped because nothing answers
 * at the primary's address): gRPC's connection backoff (grpc/doc/connection-backoff.md: initial 1 s,
 * multiplier 1.6, at most 120 s), counted from when the failed attempt is known to have failed,
 * without gRPC's ±20% jitter (every time a function of the log, readable in a lesson). The wait after
 * failed attempt `n` (from 1).
 */
export const REDIAL = { initialMs: 1000, multiplier: 1.6, maxMs: 120_000 } as const;

export function redialDelayMs(attempt: number): number {
  return Math.min(REDIAL.maxMs, Math.round(REDIAL.initialMs * REDIAL.multiplier ** (attempt - 1)));
}


/** The cluster whose API or cluster address this is, if any. */
export function clusterAt(state: SimState, address: string): ClusterState | null {
  if (address.trim() === '') return null;
  for (const c of state.clusters.list()) if (sameAddress(c.apiAddr, address) || sameAddress(c.clusterAddr, address)) return c;
  return null;
}

/** The cluster address a primary gives its secondaries: the one set at enable or promote, else its own. */
export function advertisedClusterAddr(primary: ClusterState, kind: ReplicationKind): string {
  return primary.replication[kind].primaryClusterAddr || primary.clusterAddr;
}

/**
 * Whether a revoked activation token is known anywhere in the world: revocation bars the secondary's
 * credentials (the token's `jti`, unique per token) in its whole replication set, not at one primary.
 * The spec says a revoked secondary "stays barred until given a new activation token" and is silent on
 * failover; the service keeps its known secondaries in replicated storage, so a DR copy of the
 * revoking primary carries the revocation. replsim applies it everywhere at once and for good
 * (simulator choice: a jti is unique, so only those credentials are barred), so a sibling promoted
 * later, even one that had stopped syncing or a second primary in a split brain, never lets them in.
 */
export function credentialsRevoked(state: SimState, kind: ReplicationKind, jti: string): boolean {
  if (jti === '') return false;
  return revokedIn(state.clusters)[kind].has(jti);
}

/**
 * Every revoked jti of the world, by kind, gathered once and carried by the clusters' table to the
 * tables made from it while the clusters a change sets keep their revocation lists (a KV write, a WAL
 * delivered: cluster-table.ts `Derived`). Streaming asks for each follower, and a scan of every
 * cluster each time would make it O(clusters²).
 */
const REVOKED: Derived<ClusterState, Record<ReplicationKind, Set<string>>> = {
  keeps: (was, now) =>
    was.replication.dr.revokedCredentials === now.replication.dr.revokedCredentials &&
    was.replication.performance.revokedCredentials === now.replication.performance.revokedCredentials &&
    was.replication.dr.mirroredPerformance?.revokedCredentials === now.replication.dr.mirroredPerformance?.revokedCredentials,
  build(clusters) {
    const found: Record<ReplicationKind, Set<string>> = { dr: new Set(), performance: new Set() };
    for (const c of clusters) {
      for (const j of c.replication.dr.revokedCredentials ?? []) found.dr.add(j);
      for (const j of c.replication.performance.revokedCredentials ?? []) found.performance.add(j);
      for (const j of c.replication.dr.mirroredPerformance?.revokedCredentials ?? []) found.performance.add(j);
    }
    return found;
  },
};

function revokedIn(clusters: SimState['clusters']): Record<ReplicationKind, Set<string>> {
  return clusters.derived(REVOKED);
}

/**
 * Whether a primary takes a secondary's credentials (its secondary id and token `jti`): the id is one
 * of its `known_secondaries` (tokens it issued, or, after a DR failover, those its predecessor issued,
 * which DR replicates), with that token, not revoked in the set. A primary that never knew the id
 * refuses it: after a promotion, "new secondary tokens must be issued to other secondaries" (spec,
 * role table) unless DR carried the list over.
 */
export function acceptsCredentials(state: SimState, kind: ReplicationKind, primary: ClusterState, secondaryId: string, jti: string): boolean {
  const issued = primary.replication[kind].issued[secondaryId];
  return !!issued && !issued.revoked && issued.jti === jti && !credentialsRevoked(state, kind, jti);
}

/**
 * The facts of the link from a following secondary to its primary as they are now: both running and
 * reachable, the other side still a primary, of the same replication set, taking the secondary's
 * credentials (`acceptsCredentials`). The connection machine's guards read these.
 */
export function linkFacts(state: SimState, kind: ReplicationKind, secondary: ClusterState): LinkFacts {
  const r = secondary.replication[kind];
  const primary = r.primary === null ? undefined : state.clusters.get(r.primary);
  if (!primary || !reachable(state.network, secondary.name, primary.name)) {
    return { reachable: false, primaryIsPrimary: false, sameReplicationSet: false, credentialsAccepted: false };
  }
  const p = primary.replication[kind];
  return {
    reachable: true,
    primaryIsPrimary: p.role === 'primary',
    sameReplicationSet: p.clusterId === r.clusterId,
    credentialsAccepted: acceptsCredentials(state, kind, primary, r.secondaryId, r.jti),
  };
}

/** Why the link from a following secondary to its primary cannot carry replication now, or null when it can. */
export function linkDown(state: SimState, kind: ReplicationKind, secondary: ClusterState): LinkDownReason | null {
  const r = secondary.replication[kind];
  if (r.role !== 'secondary.following' || r.primary === null) return 'unreachable';
  return linkDownReason(linkFacts(state, kind, secondary));
}

/**
 * The connection as the state records it (the machine's value, kept as `connected` and `syncState`
 * so the state's shape is unchanged): idle (or shutdown, once it closed the one it had) unless
 * following a primary; ready once the link was established; connecting otherwise. `transient_failure` is never stored: it follows from the facts
 * of the link now (`currentConnection`).
 */
export function storedConnection(r: ReplicationState): Connection {
  if (r.role !== 'secondary.following' || r.primary === null) return r.syncState === 'shutdown' ? SHUTDOWN_CONNECTION : IDLE_CONNECTION;
  const phase = r.syncState === 'idle' || r.syncState === 'shutdown' ? 'stream-wals' : r.syncState;
  return { state: r.connected ? 'ready' : 'connecting', phase, reason: null };
}

/**
 * Records what the machine holds, at `at`: a connection coming up or going down also records that
 * instant (`connectedAt`, `disconnectedAt`), the facts the heartbeats' schedule is computed from
 * (heartbeats.ts).
 */
export function storeConnection(r: ReplicationState, c: Connection, at: number): void {
  const up = c.state === 'ready';
  if (up && !r.connected) {
    r.connectedAt = at;
    r.disconnectedAt = null;
    // A new connection: its heartbeats start from its handshake, heard by both ends.
    if (r.heartbeats) delete r.heartbeats;
    if (r.heartbeatsForgotten) delete r.heartbeatsForgotten;
  } else if (!up && r.connected && r.connectedAt !== null) r.disconnectedAt = at;
  r.connected = up;
  r.syncState = c.state === 'idle' || c.state === 'shutdown' ? c.state : c.phase;
}

/**
 * Applies the row of the connection machine an event names (follow, unfollow, reset, sync-done,
 * lost: rows that read no link facts, only the connection as stored) on a draft of the cluster, and
 * stores the outcome at `at`; an event it has no row for is a corrupt log. Moves decided on the
 * link's facts are applied as recorded (`moveConnectionAsRecorded`). Reports the link changed in
 * `touched`: a connection that was up and is told to `follow` again is closed (it dials afresh).
 */
export function moveConnection(c: ClusterState, kind: ReplicationKind, event: ConnectionEvent, at: number, touched: Touch[]): void {
  const r = c.replication[kind];
  const next = stepConnection(storedConnection(r), event);
  if (next === null) throw new Error(`replication log is inconsistent: ${c.name}'s ${kind} connection cannot take ${event.type} from ${storedConnection(r).state}`);
  touched.push(event.type === 'follow' && r.connected ? linkTouched('connection-closed', kind, c.name, r.primary) : linkTouched('link-changed', kind, c.name));
  storeConnection(r, next, at);
}

/**
 * Records the connection move an event recorded (`to`, the connection machine's answer when the
 * event was made), on a draft of the cluster, at `at`; a move that is no row of the machine's table
 * is a corrupt log. Reports the link changed in `touched`.
 */
export function moveConnectionAsRecorded(c: ClusterState, kind: ReplicationKind, type: ConnectionEvent['type'], to: Connection, at: number, touched: Touch[]): void {
  const r = c.replication[kind];
  const from = storedConnection(r);
  if (recordedMove(from, type, to) === null) throw new Error(`replication log is inconsistent: ${c.name}'s ${kind} connection has no ${type} row from ${from.state} to ${to.state}${to.state === 'ready' ? ` (${String(to.phase)})` : ''}`);
  touched.push(linkTouched('link-changed', kind, c.name));
  storeConnection(r, to, at);
}

/**
 * The connection now: the recorded one, observed against the link's facts now (a fault since the
 * last event shows at once). `facts`: the link's facts when the caller read them already.
 */
export function currentConnection(state: SimState, kind: ReplicationKind, secondary: ClusterState, facts?: LinkFacts): Connection {
  const stored = storedConnection(secondary.replication[kind]);
  return stored.state === 'idle' || stored.state === 'shutdown' ? stored : observeConnection(stored, facts ?? linkFacts(state, kind, secondary));
}

/** Whether the secondary is connected to its primary right now. */
export function isConnected(state: SimState, kind: ReplicationKind, secondary: ClusterState): boolean {
  return currentConnection(state, kind, secondary).state === 'ready';
}

/** The clusters that follow this primary in its replication set, by name order, those it does not take (revoked, unknown) left out. */
export function followersOf(state: SimState, kind: ReplicationKind, primary: ClusterState): ClusterState[] {
  const p = primary.replication[kind];
  const out: ClusterState[] = [];
  const names = followingIndex(state.clusters)[kind].get(primary.name);
  if (!names) return out;
  for (const n of names) {
    const c = state.clusters.named(n);
    const r = c.replication[kind];
    if (c.name === primary.name || r.clusterId !== p.clusterId) continue;
    if (acceptsCredentials(state, kind, primary, r.secondaryId, r.jti)) out.push(c);
  }
  return out;
}

type FollowingIndex = Record<ReplicationKind, Map<string, string[]>>;

/**
 * The clusters following each primary (role `secondary.following`), by kind, in name order: built once
 * and carried by the clusters' table to the tables made from it while the clusters a change sets keep
 * their roles and primaries (a KV write, a WAL delivered), so a write does not sort every cluster's
 * name. Readers take the clusters themselves from the state.
 */
const FOLLOWING: Derived<ClusterState, FollowingIndex> = {
  keeps: (was, now) =>
    was.replication.dr.role === now.replication.dr.role &&
    was.replication.dr.primary === now.replication.dr.primary &&
    was.replication.performance.role === now.replication.performance.role &&
    was.replication.performance.primary === now.replication.performance.primary,
  build(clusters) {
    const found: FollowingIndex = { dr: new Map(), performance: new Map() };
    for (const name of [...clusters.names].sort())
      for (const kind of REPLICATION_KINDS) {
        const r = clusters.named(name).replication[kind];
        if (r.role !== 'secondary.following' || r.primary === null) continue;
        const list = found[kind].get(r.primary);
        if (list) list.push(name);
        else found[kind].set(r.primary, [name]);
      }
    return found;
  },
};

export function followingIndex(clusters: SimState['clusters']): FollowingIndex {
  return clusters.derived(FOLLOWING);
}
