// The replication status record (`data` of GET sys/replication/<kind>/status), built from the state
// as it is now, so partitions and crashes show at once, before the streaming process has recorded
// the dropped link. Field names and value shapes follow vault-api-facts.md (A/B, Replication status).
import { modeOf } from '../../../models/replication-role.machine.js';
import { reportedConnection } from '../../../models/secondary-connection.machine.js';
import { epochSeconds, rfc3339 } from '../../kernel/clock.js';
import { isMerkleCorrupted, merkleRootOf } from '../merkle/merkle.js';
import type { ClusterState, ReplicationKind, SimState } from '../cluster/state.js';
import { currentConnection, followersOf, isConnected } from './link.js';

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
 * One side of a link as the other side sees it. Heartbeats are derived, not logged nor sent on the
 * bus (a choice: a long wait must not append an event per heartbeat, and periodic instants would
 * change every recorded answer): while connected they are taken to flow continuously, so the last
 * one is now; once down, it is the last contact recorded. A heartbeat's round trip is 2 × latency.
 */
function linkEntry(state: SimState, connected: boolean, lastContact: number) {
  const latency = state.network.latencyMs;
  return {
    connection_status: connected ? 'connected' : 'disconnected',
    last_heartbeat: rfc3339(connected ? state.now : lastContact),
    clock_skew_ms: '0',
    last_heartbeat_duration_ms: String(2 * latency),
    replication_primary_canary_age_ms: String(connected ? latency : state.now - lastContact + latency),
  };
}

function primaryRecord(state: SimState, c: ClusterState, kind: ReplicationKind) {
  const r = c.replication[kind];
  const secondaries = followersOf(state, kind, c).map((s) => {
    const sr = s.replication[kind];
    return {
      node_id: sr.secondaryId,
      api_address: s.apiAddr,
      cluster_address: s.clusterAddr,
      ...linkEntry(state, isConnected(state, kind, s), sr.lastHeartbeat),
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
      ? [{ api_address: r.primaryApiAddr, cluster_address: r.primaryClusterAddr, ...linkEntry(state, isConnected(state, kind, c), r.lastHeartbeat) }]
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
