// The replication status record (`data` of GET sys/replication/<kind>/status), built from the state
// as it is now, so partitions and crashes show at once in the secondary's `connection_state`, before
// the streaming process has recorded the dropped link; each side's `connection_status` and
// `last_heartbeat` are its heartbeats' verdict (heartbeats.ts). Field names and value shapes follow vault-api-facts.md (A/B, Replication status).
import { modeOf } from '../../../models/replication-role.machine.js';
import { reportedConnection } from '../../../models/secondary-connection.machine.js';
import { epochSeconds, rfc3339 } from '../../kernel/clock.js';
import { isMerkleCorrupted, merkleRootOf } from '../merkle/merkle.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import { currentConnection, followersOf, isConnected } from './link.js';
import { primaryView, secondaryView, type ConnectionSpan, type HeartbeatView } from './heartbeats.js';

/** Go's zero time in epoch seconds: what the service prints for a corruption check never run. */
const NEVER_CHECKED_EPOCH = '-62135596800';

/** The fields every non-disabled record carries about the cluster's own merkle tree. */
function merkleFields(c: ClusterState) {
  return {
    merkle_root: merkleRootOf(c),
    last_reindex_epoch: c.merkle.lastReindexAt === null ? '0' : String(epochSeconds(c.merkle.lastReindexAt)),
    last_corruption_check_epoch: c.merkle.lastCorruptionCheckAt === null ? NEVER_CHECKED_EPOCH : String(epochSeconds(c.merkle.lastCorruptionCheckAt)),
    corrupted_merkle_tree: isMerkleCorrupted(c),
  };
}

/**
 * The connection of a following secondary as its heartbeats' schedule reads it (heartbeats.ts): when
 * it was established and when it ended, or null when none was since it was told to follow. A
 * connection the state still records as up whose link is down now (a fault at this very instant,
 * whose check has not been taken yet) ends now.
 */
function connectionSpan(state: SimState, kind: ReplicationKind, secondary: ClusterState): ConnectionSpan | null {
  const r = secondary.replication[kind];
  if (r.connectedAt === null) return null;
  if (r.disconnectedAt !== null || !r.connected) return { connectedAt: r.connectedAt, disconnectedAt: r.disconnectedAt ?? state.now };
  return { connectedAt: r.connectedAt, disconnectedAt: isConnected(state, kind, secondary) ? null : state.now };
}

/**
 * One side of a link as the other side sees it, from the last heartbeat that reached this side
 * (`view`: heartbeats.ts; none before the first connection, when the instant it was told to follow
 * stands for it). A heartbeat's round trip is 2 × latency.
 */
function linkEntry(state: SimState, view: HeartbeatView | null, followedAt: number) {
  const latency = state.network.latencyMs;
  const connected = view?.connected === true;
  const last = view?.lastHeartbeat ?? followedAt;
  return {
    connection_status: connected ? 'connected' : 'disconnected',
    last_heartbeat: rfc3339(last),
    clock_skew_ms: '0',
    last_heartbeat_duration_ms: String(2 * latency),
    replication_primary_canary_age_ms: String(connected ? latency : state.now - last + latency),
  };
}

/**
 * The primary's entry for a secondary: its heartbeats alone tell the primary whether the secondary
 * is there (a crashed or cut-off secondary is `connected` until `HEARTBEAT.missed` echoes were due).
 */
function primarySide(state: SimState, kind: ReplicationKind, secondary: ClusterState) {
  const span = connectionSpan(state, kind, secondary);
  return linkEntry(state, span && primaryView(span, state.now, state.network.latencyMs), secondary.replication[kind].followedAt);
}

/**
 * The secondary's entry for its primary: the last answer to its echoes that reached it; it is
 * connected while those answers keep coming and its own channel is up (the channel it dialed tells
 * it at once of a link it lost: `connection_state`).
 */
function secondarySide(state: SimState, kind: ReplicationKind, secondary: ClusterState) {
  const span = connectionSpan(state, kind, secondary);
  const view = span && secondaryView(span, state.now, state.network.latencyMs);
  return linkEntry(state, view && { ...view, connected: view.connected && span.disconnectedAt === null }, secondary.replication[kind].followedAt);
}

function primaryRecord(state: SimState, c: ClusterState, kind: ReplicationKind) {
  const r = c.replication[kind];
  const secondaries = followersOf(state, kind, c).map((s) => {
    const sr = s.replication[kind];
    return {
      node_id: sr.secondaryId,
      api_address: s.apiAddr,
      cluster_address: s.clusterAddr,
      ...primarySide(state, kind, s),
    };
  });
  return {
    mode: 'primary',
    cluster_id: r.clusterId,
    state: 'running',
    known_secondaries: Object.values(r.issued)
      .filter((i) => !i.revoked)
      .map((i) => i.id),
    secondaries,
    last_wal: c.wal.last,
    [kind === 'dr' ? 'last_dr_wal' : 'last_performance_wal']: c.wal.last,
    ...merkleFields(c),
    primary_cluster_addr: r.primaryClusterAddr,
    ssct_generation_counter: 0,
  };
}

/** `state` and `connection_state` of a secondary: what its connection machine holds, given its link now. */
function secondaryProgress(state: SimState, c: ClusterState, kind: ReplicationKind): { state: string; connection_state: string } {
  return reportedConnection(currentConnection(state, kind, c));
}

function secondaryRecord(state: SimState, c: ClusterState, kind: ReplicationKind) {
  const r = c.replication[kind];
  const primaries =
    r.role === 'secondary.following' && r.primaryApiAddr !== ''
      ? [{ api_address: r.primaryApiAddr, cluster_address: r.primaryClusterAddr, ...secondarySide(state, kind, c) }]
      : [];
  return {
    mode: 'secondary',
    cluster_id: r.clusterId,
    ...secondaryProgress(state, c, kind),
    last_remote_wal: r.lastRemoteWal,
    primaries,
    known_primary_cluster_addrs: r.knownPrimaryClusterAddrs,
    secondary_id: r.secondaryId,
    ...merkleFields(c),
    primary_cluster_addr: r.primaryClusterAddr,
    last_start: rfc3339(r.since),
    ssct_generation_counter: 0,
  };
}

/** The status record of one kind of replication on one cluster. */
export function replicationStatus(state: SimState, clusterName: string, kind: ReplicationKind): Record<string, unknown> {
  const c = state.clusters.named(clusterName);
  switch (modeOf(c.replication[kind].role)) {
    case 'disabled':
      return { mode: 'disabled' };
    case 'primary':
      return primaryRecord(state, c, kind);
    case 'secondary':
      return secondaryRecord(state, c, kind);
  }
}
