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
// not a copy), and the delivery reads it (evolve.ts via `asOfWal`). Kept only while a follower needs it.
import type { BusMessage, Receiver } from '../../kernel/bus.js';
import type { Reducer, ReducerTable } from '../../kernel/engine.js';
import type { SimEvent } from '../core/events.js';
import { REPLICATION_KINDS } from '../core/vocabulary.js';
import type { Clusters, ClusterState, ReplicationKind, SimState } from '../core/state.js';
import { currentConnection, followingIndex, linkFacts, storedConnection } from './link.js';
import { linkDownReason, observeConnection, stepConnection } from '../../../models/secondary-connection.machine.js';
import { changedBetween } from '../core/changed.js';

// A stream's name is made once per kind and pair of clusters and shared by every message of it: the
// bus keys its streams by name, and a name made anew for each message was a new string to hash and
// keep.
const walStreams: Record<ReplicationKind, Map<string, Map<string, string>>> = { dr: new Map(), performance: new Map() };
const linkStreams: Record<ReplicationKind, Map<string, string>> = { dr: new Map(), performance: new Map() };

/** The stream of WALs of one kind from a primary to one follower. */
export function walStream(kind: ReplicationKind, from: string, to: string): string {
  let byTo = walStreams[kind].get(from);
  if (!byTo) walStreams[kind].set(from, (byTo = new Map()));
  let name = byTo.get(to);
  if (name === undefined) byTo.set(to, (name = `wal:${kind}:${from}>${to}`));
  return name;
}

/** The stream of a secondary's link messages (its connection attempts and the merkle sync), of one kind. */
export function linkStream(kind: ReplicationKind, secondary: string): string {
  let name = linkStreams[kind].get(secondary);
  if (name === undefined) linkStreams[kind].set(secondary, (name = `link:${kind}:${secondary}`));
  return name;
}

/** The kind of replication a stream's message belongs to ("wal:dr:east>west" → dr). */
function kindOf(m: BusMessage): ReplicationKind {
  return m.stream.startsWith('dr:', m.stream.indexOf(':') + 1) ? 'dr' : 'performance';
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
  const facts = linkFacts(state, kind, secondary);
  const down = linkDownReason(facts);
  // Revoked, or the primary demoted or of another set now: the link was reset.
  if (down !== null && down !== 'unreachable') return { drop: `link reset: ${m.from} ${SPELLED[down]}` };
  // The connection machine is the gate: WALs flow only on a link that is up and streaming (link.ts
  // `currentConnection`, on the facts read above).
  const c = currentConnection(state, kind, secondary, facts);
  if (c.state !== 'ready' || c.phase !== 'stream-wals') return 'wait';
  let upTo = m.order;
  for (const x of due) if (x.order > upTo) upTo = x.order;
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
  // The machine takes the link up only on the link's facts now; the event records what it came up into.
  const up = stepConnection(observeConnection(stored, link), { type: 'connect', link });
  if (up === null) return { drop: `refused: ${m.to} ${SPELLED[linkDownReason(link) ?? 'unreachable']}` };
  return [{ type: 'replication-secondary-connected', at, kind, cluster: m.from, primary: m.to, phase: up.phase }];
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
function lowestTaken(clusters: Clusters, primary: string): number | null {
  let low: number | null = null;
  const index = followingIndex(clusters);
  for (const kind of REPLICATION_KINDS) {
    const names = index[kind].get(primary);
    if (!names) continue;
    for (const name of names) {
      const taken = clusters.named(name).replication[kind].lastRemoteWal;
      if (low === null || taken < low) low = taken;
    }
  }
  return low;
}

type Snapshots = SimState['walAsOf'];

/** Adds `name` to a short list (the clusters an event touched are a handful at most). */
function touch(list: string[] | null, name: string): string[] {
  if (!list) return [name];
  if (!list.includes(name)) list.push(name);
  return list;
}

/**
 * The snapshots after an event, from the clusters before and after it (`kept`: the snapshots the
 * reducer left): new ones for WALs a follower still needs, those no follower needs forgotten.
 */
function snapshotsAfter(before: SimState, after: Clusters, kept: Snapshots): Snapshots {
  if (before.clusters === after) return kept;
  const changed = changedBetween(before.clusters, after);
  let touched: string[] | null = null;
  for (const name of changed) {
    const was = before.clusters.get(name);
    const now = after.named(name);
    // A primary that wrote a WAL, or the primary of a secondary that took one (or changed).
    if (was && now.wal.last > was.wal.last && was.wal.last > 0) touched = touch(touched, name);
    if (!kept) continue;
    for (const kind of REPLICATION_KINDS) {
      const p0 = was?.replication[kind].primary;
      if (p0 && kept[p0]) touched = touch(touched, p0);
      const p1 = now.replication[kind].primary;
      if (p1 && kept[p1]) touched = touch(touched, p1);
    }
  }
  if (!touched) return kept;
  let next: Record<string, Record<string, ClusterState>> | undefined;
  if (kept) for (const name in kept) if (!touched.includes(name)) (next ??= {})[name] = kept[name];
  for (const name of touched) {
    const was = before.clusters.get(name);
    const now = after.get(name);
    const low = now ? lowestTaken(after, name) : null;
    let own: Record<string, ClusterState> | null = null;
    const held = kept?.[name];
    if (held && low !== null) for (const i in held) if (Number(i) > low && Number(i) < now!.wal.last) (own ??= {})[i] = held[i];
    // The primary as it was at its last WAL, before this event wrote newer ones.
    if (was && now && now.wal.last > was.wal.last && low !== null && was.wal.last > low) (own ??= {})[was.wal.last] = was;
    if (own) (next ??= {})[name] = Object.freeze(own);
  }
  return sameSnapshots(kept, next) ? kept : next && Object.freeze(next);
}

function sameSnapshots(a: Snapshots, b: Snapshots): boolean {
  if (a === b) return true;
  const ka = a ? Object.keys(a) : [];
  if (ka.length !== (b ? Object.keys(b).length : 0)) return false;
  for (const name of ka) {
    const x = a![name];
    const y = b?.[name];
    if (!y || Object.keys(x).length !== Object.keys(y).length) return false;
    for (const i in x) if (x[i] !== y[i]) return false;
  }
  return true;
}

/**
 * The reducer table, each event's reducer followed by the WAL snapshots' upkeep. The wrapper works
 * on the clusters before and after the reducer, so it costs one look at which clusters changed, and
 * a look at the followers when a WAL moved.
 */
export function withWalSnapshots(table: ReducerTable<SimState, SimEvent>): ReducerTable<SimState, SimEvent> {
  const out: Record<string, Reducer<SimState, SimEvent>> = {};
  for (const [type, reducer] of Object.entries(table) as [string, Reducer<SimState, SimEvent>][]) {
    out[type] = (s: SimState, e: SimEvent): Partial<SimState> | null => {
      const changed = reducer(s, e);
      // The reducer's own answer: what it changed, and the snapshots' upkeep on top.
      const kept = changed !== null && 'walAsOf' in changed ? changed.walAsOf : s.walAsOf;
      const snaps = snapshotsAfter(s, changed?.clusters ?? s.clusters, kept);
      if (snaps === kept) return changed;
      return { ...changed, walAsOf: snaps };
    };
  }
  return out as ReducerTable<SimState, SimEvent>;
}
