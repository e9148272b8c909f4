// The replication status record (`data` of GET sys/replication/<kind>/status), built from the state
// as it is now, so partitions and crashes show at once in the secondary's `connection_state`, before
// the streaming process has recorded the dropped link; each side's `connection_status` and
// `last_heartbeat` are its heartbeats' verdict (heartbeats.ts). Field names and value shapes follow vault-api-facts.md (A/B, Replication status).
import { modeOf } from '../../../models/replication-role.machine.js';
import { reportedConnection } from '../../../models/secondary-connection.machine.js';
import { epochSeconds, rfc3339 } from '../../kernel/clock.js';
import { isMerkleCorrupted, merkleRootOf } from '../merkle/merkle.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import { currentConnection, followersOf } from './link.js';
import { primaryView, secondaryView, type HeartbeatView } from './heartbeats.js';
import { forgotten, heartbeatLink } from './heartbeat-facts.js';

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
 * One side of a link as the other side sees it, from the last heartbeat that reached this side
 * (`view`: heartbeats.ts). A side that heard none over the connection — none made since it was told
 * to follow, or it crashed since and forgot them — reports the link `disconnected` and leaves out the
 * fields heartbeats measure (the service's client reads each as optional). `clock_skew_ms` is 0: every
 * cluster reads the one virtual clock, so heartbeats find no skew to estimate.
 */
function linkEntry(state: SimState, view: HeartbeatView | null, latencyMs: number) {
  if (view === null) return { connection_status: 'disconnected' };
  const last = view.lastHeartbeat;
  return {
    connection_status: view.connected ? 'connected' : 'disconnected',
    last_heartbeat: rfc3339(last),
    clock_skew_ms: '0',
    last_heartbeat_duration_ms: String(view.roundTripMs),
    replication_primary_canary_age_ms: String(view.connected ? latencyMs : state.now - last + latencyMs),
  };
}

/** Whether `side` still remembers the heartbeats of the secondary's latest connection (it did not crash since). */
function remembers(r: ClusterState['replication']['dr'], side: 'primary' | 'secondary'): boolean {
  const by = forgotten(r);
  return by !== side && by !== 'both';
}

/**
 * The primary's entry for a secondary: its heartbeats alone tell the primary whether the secondary
 * is there (a crashed or cut-off secondary is `connected` until `HEARTBEAT.missed` intervals passed).
 */
function primarySide(state: SimState, kind: ReplicationKind, secondary: ClusterState) {
  const link = heartbeatLink(state, kind, secondary);
  const view = link && remembers(secondary.replication[kind], 'primary') ? primaryView(link, state.now) : null;
  return linkEntry(state, view, link?.latencyMs ?? 0);
}

/**
 * The secondary's entry for its primary: the last answer to its echoes that reached it; it is
 * connected while those answers keep coming and its own channel is up (the channel it dialed tells
 * it at once of a link it lost: `connection_state`).
 */
function secondarySide(state: SimState, kind: ReplicationKind, secondary: ClusterState) {
  const link = heartbeatLink(state, kind, secondary);
  const view = link && remembers(secondary.replication[kind], 'secondary') ? secondaryView(link, state.now) : null;
  return linkEntry(state, view, link?.latencyMs ?? 0);
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

/**
 * `state` and `connection_state` of a secondary: what its connection machine holds, given its link
 * now. Read alone by a step's picture, without the rest of the record (whose merkle root prints the
 * cluster's whole store).
 */
export function secondaryProgress(state: SimState, c: ClusterState, kind: ReplicationKind): { state: string; connection_state: string } {
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
