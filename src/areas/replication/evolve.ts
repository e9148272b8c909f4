// How replication's events change the world state: most reducers edit the cluster their event names
// (core/reduce.ts `onCluster`); a WAL delivered, the commonest event of a replicated run, builds the
// secondary's next cluster with literals (`caughtUp`), and so does the sync that ends with the same
// catch-up. Role changes were decided by the handler, which asked the role machine
// (decide/common.ts `askRoleOf`) with the facts it checked; the event records the machine's answer (`role`) and the reducer applies it: no copy of the role table
// here, and no second question to the machine with facts the reducer would have to invent.
// Reducers never draw and never read a clock. Each reports, beside the state, what it did to a link and
// the WALs a cluster wrote (touched.ts, core/touched.ts): what the bus reads (messages.ts).
import { clustersChanged, editCluster, onCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import { isRoleMove, type RoleEvent, type RoleValue } from '../../../models/replication-role.machine.js';
import { stepConnection, type Connection } from '../../../models/secondary-connection.machine.js';
import type { Clusters, ClusterState, ReplicationKind, SimState } from '../core/state.js';
import type { ReplicationState } from './state.js';
import { advancedWal, copyCluster, deepFreeze } from '../core/state.js';
import { copyReplication, withReplication } from './state.js';
import type { Touch } from '../../kernel/engine.js';
import { walWritten } from '../core/touched.js';
import { leftStream, linkTouched, repointed } from './touched.js';
import type {
  PrimaryAssignment,
  PrimaryDemoted,
  PrimaryDisabled,
  PrimaryEnabled,
  SecondaryConnected,
  SecondaryDisabled,
  SecondaryDisconnected,
  SecondaryEnabled,
  SecondaryKeyGenerated,
  SecondaryPrimaryUpdated,
  ReplicationRecovered,
  SecondaryPromoted,
  SecondaryRevoked,
  SecondarySynced,
  SecondaryTokenIssued,
  WalDelivered,
} from './events.js';
import { dynamicFilterOf, enforceFilter, enforceFiltersOf } from './filters.js';
import { moveConnection, moveConnectionAsRecorded, storeConnection, storedConnection } from './link.js';
import { holdPerformance, mirrorPerformance, takeUpPerformance } from './interplay.js';
import { replicatedStorage, replicationScopes, wipedStorage } from './scope.js';
import { asOfWal } from './shipping.js';
import { emptySyncState, syncStateForPerformanceSecondary } from '../sync/sync.js';
import { emptyPluginCatalog } from '../plugins/plugins.js';

/** The connection a secondary held before its role changed (storedConnection reads the role, already moved). */
function storedConnectionWhileFollowing(r: ReplicationState): Connection {
  if (r.primary === null || r.syncState === 'shutdown') return storedConnection(r);
  return { state: r.connected ? 'ready' : 'connecting', phase: r.syncState === 'idle' ? 'stream-wals' : r.syncState, reason: null };
}

/**
 * Moves the role where the role machine moved it: the handler asked it with the facts it checked, and
 * the event records its answer. A move that is no row of the machine's table (a history edited or
 * made by hand) is refused, never applied: replay names its line.
 */
function moveRole(r: ReplicationState, request: RoleEvent['type'], next: RoleValue): void {
  if (!isRoleMove(r.role, request, next)) throw new Error(`the role table has no ${request} from ${r.role} to ${JSON.stringify(next)}: the event does not fit the role it is applied to`);
  r.role = next;
}

/**
 * Forgets everything a secondary knows about a primary it followed. `closed`: it stays a secondary and
 * closes the connection it had (shutdown); otherwise it leaves the secondary role and its connection
 * starts afresh (idle).
 */
function clearSecondarySide(r: ReplicationState, at: number, closed = false): void {
  const had = storedConnectionWhileFollowing(r);
  r.primary = null;
  r.primaryApiAddr = '';
  r.secondaryId = '';
  r.jti = '';
  r.lastRemoteWal = 0;
  // No primary to follow (the role already left `following`): the machine closes the connection,
  // and with its primary go the heartbeats it had exchanged.
  r.connectedAt = null;
  r.disconnectedAt = null;
  storeConnection(r, stepConnection(had, { type: closed ? 'unfollow' : 'reset' })!, at);
  r.knownPrimaryClusterAddrs = [];
  r.dynamicFilter = { mounts: [], namespaces: [] };
}

function assign(r: ReplicationState, a: PrimaryAssignment, at: number): void {
  // The connection is attempted one link latency after this moment. Heartbeats exchanged with
  // another primary (or set) are not this one's; with the same one, the connection's end is
  // recorded when the machine closes it.
  if (a.primary !== r.primary || a.clusterId !== r.clusterId) {
    r.connectedAt = null;
    r.disconnectedAt = null;
  }
  r.followedAt = at;
  r.primary = a.primary;
  r.primaryApiAddr = a.primaryApiAddr;
  r.primaryClusterAddr = a.primaryClusterAddr;
  r.knownPrimaryClusterAddrs = a.knownPrimaryClusterAddrs;
  r.secondaryId = a.secondaryId;
  r.jti = a.jti;
  r.clusterId = a.clusterId;
  r.dynamicFilter = { mounts: [], namespaces: [] };
}

/** Both lists, the first's order kept; the first list itself when the second adds nothing. */
function unionOf(a: readonly string[] = [], b: readonly string[] = []): string[] {
  // Most deliveries bring no new revocation: the same list, or an empty one.
  if (a === b || b.length === 0) return a as string[];
  const extra = b.filter((x) => !a.includes(x));
  return extra.length ? [...a, ...extra] : (a as string[]);
}

/**
 * The secondary caught up with its primary as of WAL `wal` (a WAL delivered, or a merkle sync ended):
 * its next cluster, new and frozen, everything it does not take shared. DR mirrors its primary; a
 * performance secondary takes what its filter lets through.
 */
function caughtUp(s: SimState, e: { kind: ReplicationKind; cluster: string; primary: string; wal: number; at: number }, touched: Touch[]): ClusterState {
  return e.kind === 'dr' ? drCaughtUp(s, e, touched) : performanceCaughtUp(s, e, touched);
}

/**
 * What a secondary's record took from its primary's (`was`: the record before, `now`: after) does to
 * links: new revocations (they bar credentials set-wide), or another list of issued tokens or
 * mirrored performance role than the one it held.
 */
function tookFromPrimary(was: ReplicationState, now: ReplicationState, kind: ReplicationKind, cluster: string, touched: Touch[]): void {
  if (now.revokedCredentials !== was.revokedCredentials) touched.push(linkTouched('credentials-revoked', kind, cluster));
  else if (now.issued !== was.issued || now.mirroredPerformance !== was.mirroredPerformance) touched.push(linkTouched('link-changed', kind, cluster));
}

/**
 * A DR secondary caught up, built with literals rather than an immer draft (a draft of each delivery
 * was a sixth of a write's time at 200 clusters). DR mirrors its primary as of the WAL delivered
 * (later writes are still on their way): the secondary takes the primary's own storage, sync and
 * plugins objects and WAL position (frozen, so shared), its issued list and its revocations (known
 * secondaries are replicated configuration: a secondary takes its primary's list up as its own when
 * promoted), and mirrors its performance role. It reports the WALs it took and what that did to links.
 */
function drCaughtUp(s: SimState, e: Parameters<typeof caughtUp>[1], touched: Touch[]): ClusterState {
  const freeze = Object.freeze;
  const secondary = s.clusters.named(e.cluster);
  const primary = asOfWal(s, e.primary, e.wal);
  const r = secondary.replication.dr;
  // Copies in the records' own key order (state.ts).
  const dr = copyReplication(r);
  dr.issued = primary.replication.dr.issued;
  dr.revokedCredentials = freeze(unionOf(r.revokedCredentials, primary.replication.dr.revokedCredentials)) as string[];
  dr.mirroredPerformance = primary.replication.performance.role === 'disabled' ? null : primary.replication.performance;
  dr.lastRemoteWal = e.wal;
  tookFromPrimary(r, dr, 'dr', e.cluster, touched);
  if (primary.wal.last > secondary.wal.last) touched.push(walWritten(secondary, primary.wal.last));
  const next = copyCluster(secondary);
  next.storage = primary.storage;
  // The primary's WAL position itself (frozen, so shared).
  next.wal = primary.wal;
  next.replication = withReplication(secondary, 'dr', freeze(dr));
  next.sync = primary.sync;
  next.plugins = primary.plugins;
  return freeze(next);
}

/**
 * A performance secondary caught up, built with literals rather than an immer draft (a draft was a
 * third of a performance write's time). The secondary takes the storage its filter lets through
 * (`replicatedStorage`, a new object), numbers its own WAL (what it applied is a change its DR
 * secondaries receive), holds its primary's issued list, revocations and dynamic filter, and reads
 * the primary's sync destinations (those in namespaces it receives; it runs no sync jobs:
 * sync/sync.ts `runsSyncJobs`) and plugin catalog; every new object frozen. It reports the WAL it
 * writes and what it took does to links.
 */
function performanceCaughtUp(s: SimState, e: Parameters<typeof caughtUp>[1], touched: Touch[]): ClusterState {
  const freeze = Object.freeze;
  const secondary = s.clusters.named(e.cluster);
  const primary = s.clusters.named(e.primary);
  const r = secondary.replication.performance;
  const built = replicatedStorage('performance', primary, secondary, r.secondaryId);
  const storage: ClusterState['storage'] = freeze({ ...built, namespaces: freeze(built.namespaces), mounts: freeze(built.mounts), kv: freeze(built.kv) });
  const filter = dynamicFilterOf(primary, r.secondaryId);
  const sync = syncStateForPerformanceSecondary(primary.sync, storage);
  const performance = copyReplication(r);
  performance.issued = primary.replication.performance.issued;
  performance.revokedCredentials = freeze(unionOf(r.revokedCredentials, primary.replication.performance.revokedCredentials)) as string[];
  performance.dynamicFilter = freeze({ mounts: freeze(filter.mounts) as string[], namespaces: freeze(filter.namespaces) as string[] });
  performance.lastRemoteWal = e.wal;
  tookFromPrimary(r, performance, 'performance', e.cluster, touched);
  touched.push(walWritten(secondary));
  const next = copyCluster(secondary);
  next.storage = storage;
  next.wal = advancedWal(secondary.wal, e.at);
  next.replication = withReplication(secondary, 'performance', freeze(performance));
  next.sync = freeze({ ...sync, destinations: freeze(sync.destinations) });
  next.plugins = primary.plugins;
  return freeze(next);
}

/** The reducer of an event whose effect is an edit of one cluster's replication record of the event's kind. */
function editingReplication<E extends { cluster: string; kind: ReplicationKind; type: string; at: number }>(edit: (r: ReplicationState, e: E, side: OtherSide) => void) {
  return onCluster((c, e: E, before, touched) => {
    edit(c.replication[e.kind], e, { before: before.clusters.named(e.cluster), replaceOther: (other) => void (c.replication[otherKind(e.kind)] = other), touched });
  });
}

/**
 * What an edit of one kind's replication record may also do: read the cluster before the event,
 * replace the other kind's record, and report what it touched.
 */
interface OtherSide {
  before: ClusterState;
  replaceOther(record: ReplicationState): void;
  touched: Touch[];
}

function otherKind(kind: ReplicationKind): ReplicationKind {
  return kind === 'dr' ? 'performance' : 'dr';
}

export const replicationReducers = {
  'replication-primary-enabled': editingReplication<PrimaryEnabled>((r, e, side) => {
    side.touched.push(leftStream(side.before.replication[e.kind], e.kind, e.cluster));
    moveRole(r, 'primary.enable', e.role);
    clearSecondarySide(r, e.at);
    r.clusterId = e.clusterId;
    r.primaryClusterAddr = e.primaryClusterAddr;
    r.issued = {};
    r.synced = false;
    r.since = e.at;
  }),
  'replication-primary-demoted': editingReplication<PrimaryDemoted>((r, e, side) => {
    side.touched.push(linkTouched('link-changed', e.kind, e.cluster));
    moveRole(r, 'primary.demote', e.role);
    // A former primary holds all its data: promoting it back passes the "initial sync" check.
    r.synced = true;
    r.primaryClusterAddr = '';
    r.since = e.at;
    // Now a DR secondary, it serves no performance replication of its own until promoted again.
    if (e.kind === 'dr') holdPerformance(r, side.before.replication.performance, e.at, side.replaceOther, e.cluster, side.touched);
  }),
  'replication-primary-disabled': editingReplication<PrimaryDisabled>((r, e, side) => {
    side.touched.push(linkTouched('link-changed', e.kind, e.cluster));
    moveRole(r, 'primary.disable', e.role);
    // The set is gone: tokens it issued can no longer be redeemed, and re-enabling draws a new id.
    r.issued = {};
    r.primaryClusterAddr = '';
    r.since = e.at;
  }),
  'replication-secondary-token-issued': editingReplication<SecondaryTokenIssued>((r, e, side) => {
    side.touched.push(linkTouched('link-changed', e.kind, e.cluster));
    // A new token for an id replaces a revoked one: the id is usable again, with the new jti.
    // A filter set for the old token does not carry over (area B rule 1).
    r.issued = { ...r.issued, [e.id]: { id: e.id, jti: e.jti, issuedAt: e.at, expiresAt: e.expiresAt, usedBy: null, publicKey: e.publicKey, revoked: false, filter: null } };
  }),
  'replication-secondary-revoked': onCluster((c, e: SecondaryRevoked, _before, touched) => {
    const r = c.replication[e.kind];
    touched.push(linkTouched('credentials-revoked', e.kind, e.cluster));
    r.issued[e.id].revoked = true;
    // The credentials stay barred in the set even after the id is issued a new token.
    r.revokedCredentials = [...(r.revokedCredentials ?? []), r.issued[e.id].jti];
  }),
  'replication-secondary-key-generated': onCluster((c, e: SecondaryKeyGenerated) => {
    c.secondaryKeys[e.kind] = { publicKey: e.publicKey, privateKey: e.privateKey };
  }),
  'replication-secondary-enabled': (s, e: SecondaryEnabled) => {
    const touched: Touch[] = [];
    const enabled = editCluster(s.clusters, e.cluster, (c) => enableSecondary(c, e, s, touched));
    if (!e.primary) return clustersChanged(s, enabled, touched);
    const primary = e.primary;
    // The primary records which cluster redeemed the token it issued.
    return clustersChanged(
      s,
      editCluster(enabled, primary, (p) => {
        const issued = p.replication[e.kind].issued[e.secondaryId];
        if (!issued || issued.jti !== e.jti || issued.usedBy === e.cluster) return;
        issued.usedBy = e.cluster;
        touched.push(linkTouched('link-changed', e.kind, primary));
      }),
      touched,
    );
  },
  'replication-secondary-promoted': (s, e: SecondaryPromoted) => {
    const touched: Touch[] = [];
    let clusters = editCluster(s.clusters, e.cluster, (c) => promoteSecondary(c, e, s.clusters, touched));
    // A performance primary again: whoever follows it is filtered by the list it holds now.
    if (clusters.named(e.cluster).replication.performance.role === 'primary') clusters = enforceFiltersOf(clusters, e.cluster, e.at, touched);
    return clustersChanged(s, clusters, touched);
  },
  'replication-secondary-disabled': editingReplication<SecondaryDisabled>((r, e, side) => {
    side.touched.push(leftStream(side.before.replication[e.kind], e.kind, e.cluster));
    moveRole(r, 'secondary.disable', e.role);
    clearSecondarySide(r, e.at);
    // A demoted former primary that is disabled leaves its set as primary/disable does: the tokens
    // it issued can no longer be redeemed (a DR secondary's mirrored list goes with it too).
    r.issued = {};
    // A disabled DR secondary is no longer anyone's copy: the performance role it mirrored is dropped.
    r.mirroredPerformance = null;
    r.primaryClusterAddr = '';
    r.synced = false;
    r.since = e.at;
  }),
  'replication-recovered': onCluster((c, e: ReplicationRecovered, _before, touched) => {
    // The decision asked the machine: each kind follows a primary, so `follow` is a row for it.
    for (const kind of e.kinds) moveConnection(c, kind, { type: 'follow', phase: 'merkle-diff' }, e.at, touched);
  }),
  'replication-secondary-primary-updated': onCluster((c, e: SecondaryPrimaryUpdated, before, touched) => {
    const r = c.replication[e.kind];
    const was = before.clusters.named(e.cluster).replication[e.kind];
    // An empty token makes the secondary forget its primary; a token or addresses give it one to follow.
    moveRole(r, 'secondary.update-primary', e.role);
    // No wipe: storage stays, and a merkle-diff brings it in line once connected.
    if (e.via === 'empty-token') {
      touched.push(leftStream(was, e.kind, e.cluster));
      clearSecondarySide(r, e.at, true);
      r.primaryClusterAddr = '';
      return;
    }
    touched.push(repointed(was, e, e.kind, e.cluster));
    assign(r, e, e.at);
    moveConnection(c, e.kind, { type: 'follow', phase: 'merkle-diff' }, e.at, touched);
    // What the new primary's filter excludes for this secondary id goes at once; the rest comes by the diff.
    if (e.kind === 'performance') enforceFilter(c, before.clusters, e.at, touched);
  }),
  'replication-secondary-connected': onCluster((c, e: SecondaryConnected, _before, touched) => {
    // The link came up into what the machine answered (shipping.ts receiveConnect): it resumes
    // streaming, or syncs first. Its instant is the connection's establishment, from which its
    // heartbeats are counted.
    moveConnectionAsRecorded(c, e.kind, 'connect', { state: 'ready', phase: e.phase, reason: null }, e.at, touched);
  }),
  'replication-secondary-synced': (s, e: SecondarySynced) => {
    const touched: Touch[] = [];
    // The merkle sync brought the primary's data as of its WAL then: a catch-up, as a WAL delivers.
    const clusters = editCluster(s.clusters.set(e.cluster, caughtUp(s, e, touched)), e.cluster, (c) => {
      c.replication[e.kind].synced = true;
      moveConnection(c, e.kind, { type: 'sync-done' }, e.at, touched);
    });
    return { clusters, touched };
  },
  'replication-wal-delivered': (s, e: WalDelivered) => {
    const touched: Touch[] = [];
    return { clusters: s.clusters.set(e.cluster, caughtUp(s, e, touched)), touched };
  },
  'replication-secondary-disconnected': onCluster((c, e: SecondaryDisconnected, _before, touched) => {
    // Dropped for the reason the machine gave on the link's facts then (streaming.ts checkLink: a
    // partition, a crash, a revocation, the primary's role or set changed).
    const had = storedConnection(c.replication[e.kind]);
    moveConnectionAsRecorded(c, e.kind, 'observe', { state: 'transient_failure', phase: had.phase, reason: e.reason }, e.at, touched);
  }),
} satisfies SimReducers;

/** A cluster enabled as a secondary (an edit of its draft; `s` is the state before), what it touched reported in `touched`. */
function enableSecondary(c: ClusterState, e: SecondaryEnabled, s: SimState, touched: Touch[]): void {
  const r = c.replication[e.kind];
  touched.push(repointed(s.clusters.named(e.cluster).replication[e.kind], e, e.kind, e.cluster));
  moveRole(r, 'secondary.enable', e.role);
  // Everything the cluster stored is cleared at once, before it ever connects.
  c.storage = wipedStorage(e.kind, s.clusters.named(e.cluster), e.primary ? s.clusters.named(e.primary) : null);
  c.sync = emptySyncState();
  c.plugins = emptyPluginCatalog();
  // A DR secondary takes its primary's WAL numbering at sync; a performance secondary keeps its own.
  if (replicationScopes[e.kind].mirrorsWal) c.wal = { last: 0, lastAt: e.at };
  // Nothing mirrored yet: a new DR secondary learns its primary's performance role at its first sync.
  r.mirroredPerformance = null;
  // The DR operation token lived in the wiped storage, and so did the (disabled) performance
  // configuration: tokens it issued as a performance primary can no longer be redeemed.
  c.drOperationToken = null;
  if (e.kind === 'dr') {
    c.replication.performance.issued = {};
    touched.push(linkTouched('link-changed', 'performance', e.cluster));
  }
  assign(r, e, e.at);
  r.issued = {};
  r.lastRemoteWal = 0;
  r.synced = false;
  // A new secondary connects into a full sync of its primary's data.
  moveConnection(c, e.kind, { type: 'follow', phase: 'merkle-sync' }, e.at, touched);
  r.since = e.at;
}

/** A secondary promoted (an edit of its draft; `clusters` as before the event), what it touched reported in `touched`. */
function promoteSecondary(c: ClusterState, e: SecondaryPromoted, clusters: Clusters, touched: Touch[]): void {
  const r = c.replication[e.kind];
  touched.push(leftStream(clusters.named(e.cluster).replication[e.kind], e.kind, e.cluster));
  // Its own record in the list it took up goes: a primary is not its own secondary.
  if (r.secondaryId !== '' && r.issued[r.secondaryId]?.jti === r.jti) delete r.issued[r.secondaryId];
  moveRole(r, 'secondary.promote', e.role);
  clearSecondarySide(r, e.at);
  // `issued` stays: a promoted DR secondary keeps the known secondaries it mirrored (caughtUp),
  // revocations included; a demoted former primary its own; a performance secondary knows none,
  // so the others need new tokens (spec, role table). Revoked credentials stay barred set-wide
  // either way (link.ts, credentialsRevoked).
  r.primaryClusterAddr = e.primaryClusterAddr;
  r.since = e.at;
  // A promoted DR secondary joins the performance set it mirrors, in its DR primary's place.
  if (e.kind === 'dr' && takeUpPerformance(c, e.at, touched)) enforceFilter(c, clusters, e.at, touched);
}

