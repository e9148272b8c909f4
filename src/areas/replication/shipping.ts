// Replication's side of the bus (src/kernel/bus.ts): the receivers of the messages of a secondary's
// link, and what a WAL carries. Each message falls due one link latency after it was sent; the
// network decides first (receiver down: dropped; link cut: held until the heal); then:
//
// - `connect` (secondary → primary, sent when the secondary starts following, loses its link, or
//   may try again): the connection machine is asked `connect` with the link's facts now; taken →
//   `replication-secondary-connected` (into merkle-sync, merkle-diff or stream-wals); refused (revoked,
//   not a primary, another set) or no longer wanted → dropped.
// - `merkle-sync` (primary → secondary, sent when the link came up into a sync or diff): the sync
//   ends → `replication-secondary-synced`, with the primary's WAL index then.
// - `wal` (primary → each follower streaming, one per WAL): delivered when the secondary's connection
//   is up and streaming WALs (one `replication-wal-delivered` takes every WAL of the stream due by
//   then, in order); held (`wait`) while it is not streaming yet (reconnecting, or in its merkle sync,
//   which then brings it); dropped when the link it travelled was reset (the secondary left that
//   primary, the primary was demoted or re-enabled as another set, or revoked its credentials).
//
// A delivery brings the primary's data as of the last WAL it takes, not later writes still on their
// way: each event that moves a primary's WAL past an index some follower has not taken yet keeps the
// primary as it was at that index (`walAsOf` in the state; the frozen cluster object itself, shared,
// not a copy), and the delivery reads it (reducers.ts via `asOfWal`). Kept only while a follower needs it.
import type { BusMessage, Receiver } from '../../kernel/bus.js';
import { applyEvent, type DirectReducer, type Reducer, type ReducerTable } from '../../kernel/engine.js';
import type { SimEvent } from '../cluster/events.js';
import type { ClusterState, ReplicationKind, SimState } from '../cluster/state.js';
import { currentConnection, followingIndex, linkFacts, storedConnection } from './link.js';
import { linkDownReason, observeConnection, stepConnection } from '../../../models/secondary-connection.machine.js';
import { changedClusters } from '../cluster/changed.js';

/** The stream of WALs of one kind from a primary to one follower. */
export function walStream(kind: ReplicationKind, from: string, to: string): string {
  return `wal:${kind}:${from}>${to}`;
}

/** The stream of a secondary's link messages (its connection attempts and the merkle sync), of one kind. */
export function linkStream(kind: ReplicationKind, secondary: string): string {
  return `link:${kind}:${secondary}`;
}

/** The kind of replication a stream's message belongs to ("wal:dr:east>west" → dr). */
function kindOf(m: BusMessage): ReplicationKind {
  return m.stream.split(':')[1] as ReplicationKind;
}

const SPELLED = { 'not-a-primary': 'is no longer a primary', 'other-replication-set': 'is of another replication set', revoked: 'revoked the credentials', unreachable: 'cannot be reached' } as const;

export const receiveWal: Receiver<SimState, SimEvent> = (state, m, due, at) => {
  const kind = kindOf(m);
  const secondary = state.clusters.get(m.to);
  const r = secondary?.replication[kind];
  // The secondary left that primary (promoted, disabled, re-pointed): the stream it belonged to is gone.
  if (!r || r.role !== 'secondary.following' || r.primary !== m.from) return { drop: `link reset: ${m.to} no longer streams from ${m.from}` };
  // A merkle sync since brought it already (the source marks those delivered): nothing left to carry.
  if (r.lastRemoteWal >= m.order) return { drop: `${m.to} holds WAL ${r.lastRemoteWal} already` };
  const down = linkDownReason(linkFacts(state, kind, secondary));
  // Revoked, or the primary demoted or of another set now: the link was reset.
  if (down !== null && down !== 'unreachable') return { drop: `link reset: ${m.from} ${SPELLED[down]}` };
  // The connection machine is the gate: WALs flow only on a link that is up and streaming.
  const c = currentConnection(state, kind, secondary);
  if (c.state !== 'ready' || c.phase !== 'stream-wals') return 'wait';
  const upTo = Math.max(...due.map((x) => x.order));
  return [{ type: 'replication-wal-delivered', at, kind, cluster: m.to, primary: m.from, wal: upTo }];
};

export const receiveConnect: Receiver<SimState, SimEvent> = (state, m, _due, at) => {
  const kind = kindOf(m);
  const secondary = state.clusters.get(m.from);
  const r = secondary?.replication[kind];
  if (!r || r.role !== 'secondary.following' || r.primary !== m.to) return { drop: `${m.from} no longer follows ${m.to}` };
  const link = linkFacts(state, kind, secondary);
  const stored = storedConnection(r);
  if (stored.state !== 'connecting') return { drop: `${m.from} is connected already` };
  // The machine takes the link up only on the link's facts now.
  if (stepConnection(observeConnection(stored, link), { type: 'connect', link }) === null) return { drop: `refused: ${m.to} ${SPELLED[linkDownReason(link) ?? 'unreachable']}` };
  return [{ type: 'replication-secondary-connected', at, kind, cluster: m.from, primary: m.to }];
};

export const receiveSync: Receiver<SimState, SimEvent> = (state, m, _due, at) => {
  const kind = kindOf(m);
  const secondary = state.clusters.get(m.to);
  const r = secondary?.replication[kind];
  if (!r || r.role !== 'secondary.following' || r.primary !== m.from) return { drop: `link reset: ${m.to} no longer follows ${m.from}` };
  const c = currentConnection(state, kind, secondary);
  // The link dropped meanwhile: the connection process records it, which drops this sync.
  if (c.state !== 'ready') return 'wait';
  if (stepConnection(c, { type: 'sync-done' }) === null) return { drop: `${m.to} is not syncing` };
  return [{ type: 'replication-secondary-synced', at, kind, cluster: m.to, primary: m.from, wal: state.clusters.named(m.from).wal.last }];
};

/** The primary as it was at WAL `wal`: kept by `withWalSnapshots` when newer WALs followed, else as it is now. */
export function asOfWal(state: SimState, primary: string, wal: number): ClusterState {
  const now = state.clusters.named(primary);
  return wal < now.wal.last ? (state.walAsOf?.[primary]?.[wal] ?? now) : now;
}

/** The lowest WAL index some follower (of either kind) of `primary` has taken, or null when none follows it. */
function lowestTaken(state: SimState, primary: string): number | null {
  let low: number | null = null;
  for (const kind of ['dr', 'performance'] as const) {
    for (const name of followingIndex(state.clusters)[kind].get(primary) ?? []) {
      const r = state.clusters.named(name).replication[kind];
      if (low === null || r.lastRemoteWal < low) low = r.lastRemoteWal;
    }
  }
  return low;
}

/** The snapshots after an event: new ones for WALs a follower still needs, those no follower needs forgotten. */
function snapshotsAfter(before: SimState, after: SimState): SimState['walAsOf'] {
  const kept = after.walAsOf;
  if (before.clusters === after.clusters) return kept;
  const changed = changedClusters(before, after);
  const touched = new Set<string>();
  for (const name of changed) {
    const was = before.clusters.get(name);
    const now = after.clusters.named(name);
    // A primary that wrote a WAL, or the primary of a secondary that took one (or changed).
    if (was && now.wal.last > was.wal.last && was.wal.last > 0) touched.add(name);
    for (const kind of ['dr', 'performance'] as const) {
      for (const c of [was, now]) {
        const p = c?.replication[kind].primary;
        if (p && kept?.[p]) touched.add(p);
      }
    }
  }
  if (!touched.size) return kept;
  let next: Record<string, Record<string, ClusterState>> | undefined;
  for (const name of Object.keys(kept ?? {})) if (!touched.has(name)) (next ??= {})[name] = kept![name];
  for (const name of touched) {
    const was = before.clusters.get(name);
    const now = after.clusters.named(name);
    const low = now ? lowestTaken(after, name) : null;
    const own: Record<string, ClusterState> = {};
    for (const [i, snap] of Object.entries(kept?.[name] ?? {})) if (low !== null && Number(i) > low && Number(i) < now.wal.last) own[i] = snap;
    // The primary as it was at its last WAL, before this event wrote newer ones.
    if (was && now && now.wal.last > was.wal.last && low !== null && was.wal.last > low) own[was.wal.last] = was;
    if (Object.keys(own).length) (next ??= {})[name] = Object.freeze(own);
  }
  return sameSnapshots(kept, next) ? kept : next && Object.freeze(next);
}

function sameSnapshots(a: SimState['walAsOf'], b: SimState['walAsOf']): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  for (const name of ka) {
    const x = a![name];
    const y = b?.[name];
    if (!y || Object.keys(x).length !== Object.keys(y).length) return false;
    for (const i of Object.keys(x)) if (x[i] !== y[i]) return false;
  }
  return true;
}

/**
 * The reducer table, each event's reducer followed by the WAL snapshots' upkeep. The wrapper works
 * on the states before and after the reducer (every reducer of the world's table is a direct form:
 * cluster/draft.ts), so it costs one look at which clusters changed, and a look at the followers
 * when a WAL moved.
 */
export function withWalSnapshots(table: ReducerTable<SimState, SimEvent>): ReducerTable<SimState, SimEvent> {
  const out: Record<string, DirectReducer<SimState, SimEvent>> = {};
  for (const [type, reducer] of Object.entries(table) as [string, Reducer<SimState, SimEvent>][]) {
    const alone = { [type]: reducer } as ReducerTable<SimState, SimEvent>;
    out[type] = {
      direct: (s: SimState, e: SimEvent): Partial<SimState> | null => {
        const after = applyEvent(s, e, alone);
        const snaps = snapshotsAfter(s, after);
        if (after === s && snaps === s.walAsOf) return null;
        const changed: Partial<SimState> = {};
        for (const key of Object.keys(after) as (keyof SimState)[]) if (key !== 'now' && after[key] !== s[key]) (changed as Record<string, unknown>)[key] = after[key];
        if (snaps !== s.walAsOf) changed.walAsOf = snaps;
        return changed;
      },
    };
  }
  return out as ReducerTable<SimState, SimEvent>;
}
