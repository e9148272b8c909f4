// How DR replication carries a cluster's performance replication. A cluster has a DR role and a
// performance role at once, and DR copies everything, the performance configuration included:
//  - performance configuration (the role, the set's id, the tokens issued and their filters) is
//    replicated storage, so changing it advances the cluster's WAL and its DR secondaries receive
//    it like any write;
//  - a DR secondary runs no performance replication of its own: it mirrors its DR primary's, and a
//    DR primary that is demoted holds its own the same way, dormant, so it stops serving the set;
//  - a DR secondary that is promoted takes the mirrored role up, in its DR primary's place: the
//    performance primary of the set (its performance secondaries follow it once pointed at it
//    with update-primary `update_primary_addrs`), or a performance secondary that connects to the
//    performance primary with the same secondary id and token.
import type { Answer, BaseEvent, Touch } from '../../kernel/engine.js';
import { editCluster, type SimReducer } from '../core/reduce.js';
import { IDLE_CONNECTION, stepConnection } from '../../../models/secondary-connection.machine.js';
import { storeConnection } from './link.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import type { ReplicationState } from './state.js';
import { emptyReplication } from './state.js';
import { touchedBoth, writeWal } from '../core/touched.js';
import { leftStream, linkTouched } from './touched.js';

/** The replication events that change a cluster's replicated performance configuration. */
const PERFORMANCE_CONFIGURATION = new Set([
  'replication-primary-enabled',
  'replication-primary-demoted',
  'replication-primary-disabled',
  'replication-secondary-token-issued',
  'replication-secondary-revoked',
  'replication-secondary-enabled',
  'replication-secondary-promoted',
  'replication-secondary-disabled',
  'replication-secondary-primary-updated',
]);

/**
 * The DR events that change a DR primary's replicated storage: the tokens it issued and revoked
 * (`known_secondaries`) live there, so its DR secondaries receive them with the next WALs and a
 * promoted one knows, and can revoke, the siblings its predecessor let in.
 */
const DR_CONFIGURATION = new Set(['replication-secondary-token-issued', 'replication-secondary-revoked']);

type Advancing = BaseEvent & { kind: ReplicationKind; cluster: string };

/** The replication reducers, where a replicated configuration change also advances the cluster's WAL. */
export function replicatingPerformanceConfiguration<T extends Record<string, SimReducer<never>>>(reducers: T): T {
  const out: Record<string, SimReducer<Advancing>> = { ...(reducers as unknown as Record<string, SimReducer<Advancing>>) };
  for (const type of new Set([...PERFORMANCE_CONFIGURATION, ...DR_CONFIGURATION])) {
    const inner = out[type];
    if (!inner) continue;
    const advances = (e: Advancing) => (e.kind === 'performance' ? PERFORMANCE_CONFIGURATION.has(type) : DR_CONFIGURATION.has(type));
    out[type] = (s: SimState, e: Advancing): Answer<SimState> | null => {
      const changed = inner(s, e);
      if (!advances(e)) return changed;
      const wal: Touch[] = [];
      const clusters = editCluster(changed?.clusters ?? s.clusters, e.cluster, (c) => writeWal(c, e.at, wal));
      return { ...changed, clusters, touched: touchedBoth(changed?.touched, wal) };
    };
  }
  return out as unknown as T;
}

/** A DR secondary's sync: it now mirrors its DR primary's performance replication, as the primary has it. */
export function mirrorPerformance(dr: ReplicationState, primary: ClusterState): void {
  dr.mirroredPerformance = primary.replication.performance.role === 'disabled' ? null : primary.replication.performance;
}

/**
 * A DR primary was demoted to a DR secondary: its performance role goes dormant, held in its DR
 * state, so its performance secondaries (or its performance primary) no longer see it. This is not
 * a step of the performance role table: the cluster stops serving, as every DR secondary does.
 * `dr` is its DR record being edited; `replacePerformance` sets its performance record; what that
 * does to the link is reported in `touched`.
 */
export function holdPerformance(dr: ReplicationState, own: ReplicationState, at: number, replacePerformance: (record: ReplicationState) => void, cluster: string, touched: Touch[]): void {
  dr.mirroredPerformance = own.role === 'disabled' ? null : own;
  if (own.role === 'disabled') return;
  replacePerformance({ ...emptyReplication(), since: at });
  // A performance secondary no longer streams from its primary; a primary's followers lose it; the
  // revocations it held go with the record (to the DR state).
  touched.push(leftStream(own, 'performance', cluster), linkTouched('credentials-revoked', 'performance', cluster));
}

/**
 * A DR secondary was promoted: it takes up the performance replication it mirrors, in its DR
 * primary's place. A performance primary keeps the set's id, the tokens issued and their filters; a
 * performance secondary follows the same primary with the same secondary id and token, and diffs
 * its data against it once connected (no wipe). Returns whether it now follows a performance primary;
 * reports its performance link changed in `touched`.
 */
export function takeUpPerformance(c: ClusterState, at: number, touched: Touch[]): boolean {
  const held = c.replication.dr.mirroredPerformance;
  c.replication.dr.mirroredPerformance = null;
  if (!held || c.replication.performance.role !== 'disabled') return false;
  // Its performance record is the one it held: the role, and the revocations that came with it.
  touched.push(linkTouched(held.revokedCredentials === c.replication.performance.revokedCredentials ? 'link-changed' : 'credentials-revoked', 'performance', c.name));
  const following = held.role === 'secondary.following';
  const performance: typeof held = {
    ...held,
    mirroredPerformance: null,
    // The connection is attempted one link latency after the promotion; the mirrored record's own
    // connection was its DR primary's, not this cluster's.
    followedAt: at,
    connectedAt: null,
    disconnectedAt: null,
    since: at,
  };
  // A follower connects afresh and diffs the data it holds; otherwise there is no connection.
  storeConnection(performance, stepConnection(IDLE_CONNECTION, following ? { type: 'follow', phase: 'merkle-diff' } : { type: 'unfollow' })!, at);
  c.replication.performance = performance;
  return following;
}
