// What replication sends over the bus (src/kernel/bus.ts), read from each applied event with the
// state before and after it:
// - `wal`: each WAL a primary writes, one message per follower and WAL index, sent when written;
//   delivered when the follower's applied index passes it (the streaming process appends that delivery
//   one link latency later, or after a partition heals), in index order; or by a merkle sync that
//   covers it. A partition, a crash or a revocation holds it in flight.
// - `connect`: a secondary's connection attempt, sent when it could start, arriving when the link came up.
// - `merkle-sync`: the primary's initial sync (or diff), from the link coming up to the sync's end.
// - `forwarded-write`: a client's KV write or delete a performance secondary sent on to its primary.
// - `unwrap`: redeeming a response-wrapped activation token calls the primary (a token sealed to a
//   public key needs no call); made and answered within the request.
import type { BusEffects, BusMessage, MessageSource } from '../../kernel/bus.js';
import type { SimEvent } from '../cluster/events.js';
import type { ReplicationKind, SimState } from '../cluster/state.js';
import { followersOf } from './link.js';

const KINDS: ReplicationKind[] = ['dr', 'performance'];
const WORD: Record<ReplicationKind, string> = { dr: 'DR', performance: 'performance' };

/** The ids of in-flight WALs of `kind` from `from` to `to` up to `index`, in index order. */
function walsUpTo(inFlight: readonly BusMessage[], kind: ReplicationKind, from: string, to: string, index: number): string[] {
  const prefix = `wal:${kind}:${from}>${to}:`;
  return inFlight
    .filter((m) => m.kind === 'wal' && m.id.startsWith(prefix) && m.order <= index)
    .sort((a, b) => a.order - b.order)
    .map((m) => m.id);
}

export const replicationMessages: MessageSource<SimState, SimEvent> = (before, event, after, inFlight) => {
  if (before.clusters === after.clusters) return null;
  // The clusters this event changed, in name order (the order messages are read in): one pass of
  // identity checks instead of sorting every name twice per event (issue #15: at 1,000 clusters
  // the two sorts were most of this function, itself a quarter of a write's time).
  const changed: string[] = [];
  for (const name of Object.keys(after.clusters)) if (before.clusters[name] !== after.clusters[name]) changed.push(name);
  changed.sort();
  const out: BusEffects = { sent: [], delivered: [] };
  const e = event as SimEvent & Record<string, unknown>;
  const seq = event.seq ?? 0;
  // Deliveries first: an event that delivers and then writes (none today) would deliver what was in flight.
  for (const name of changed) {
    const was = before.clusters[name];
    const now = after.clusters[name];
    if (!was || was === now) continue;
    for (const kind of KINDS) {
      const [r0, r1] = [was.replication[kind], now.replication[kind]];
      if (r1.primary !== null && r1.primary === r0.primary && r1.lastRemoteWal > r0.lastRemoteWal) {
        out.delivered.push(...walsUpTo(inFlight, kind, r1.primary, name, r1.lastRemoteWal));
      }
    }
  }
  switch (e.type) {
    case 'kv-written':
    case 'kv-deleted':
      // A performance secondary forwarded a client's write to its primary, within the request.
      if (typeof e.forwardedBy === 'string')
        out.sent.push({ id: `forwarded-write:${e.forwardedBy}>${e.cluster}@${seq}`, kind: 'forwarded-write', from: e.forwardedBy, to: e.cluster as string, sentAt: event.at, label: `forwarded ${e.type === 'kv-written' ? 'write' : 'delete'} ${e.mount}${e.key}`, order: 0, now: true });
      break;
    case 'replication-secondary-connected': {
      const kind = e.kind as ReplicationKind;
      const cluster = e.cluster as string;
      const sentAt = before.clusters[cluster].replication[kind].lastHeartbeat;
      out.sent.push({ id: `connect:${kind}:${cluster}>${e.primary}@${seq}`, kind: 'connect', from: cluster, to: e.primary as string, sentAt, label: `connect (${WORD[kind]})`, order: 0, now: true });
      break;
    }
    case 'replication-secondary-synced': {
      const kind = e.kind as ReplicationKind;
      const cluster = e.cluster as string;
      const primary = e.primary as string;
      const sentAt = before.clusters[cluster].replication[kind].lastHeartbeat;
      out.sent.push({ id: `merkle-sync:${kind}:${primary}>${cluster}@${seq}`, kind: 'merkle-sync', from: primary, to: cluster, sentAt, label: `initial sync to WAL ${e.wal} (${WORD[kind]})`, order: 0, now: true });
      break;
    }
    case 'replication-secondary-enabled':
    case 'replication-secondary-primary-updated': {
      const kind = e.kind as ReplicationKind;
      const primary = e.primary as string | null;
      if (primary === null || e.via === 'addresses' || e.via === 'empty-token') break;
      const issued = before.clusters[primary]?.replication[kind].issued[e.secondaryId as string];
      if (issued?.publicKey) break;
      out.sent.push({ id: `unwrap:${kind}:${e.cluster}>${primary}@${seq}`, kind: 'unwrap', from: e.cluster as string, to: primary, sentAt: event.at, label: `unwrap activation token (${WORD[kind]})`, order: 0, now: true });
      break;
    }
  }
  // WALs written: one message per follower and index, in flight until delivered.
  for (const name of changed) {
    const was = before.clusters[name];
    const now = after.clusters[name];
    if (!was || was === now || now.wal.last <= was.wal.last) continue;
    for (const kind of KINDS) {
      if (now.replication[kind].role !== 'primary') continue;
      for (const f of followersOf(after, kind, now)) {
        for (let i = was.wal.last + 1; i <= now.wal.last; i++) {
          out.sent.push({ id: `wal:${kind}:${name}>${f.name}:${i}@${seq}`, kind: 'wal', from: name, to: f.name, sentAt: event.at, label: `WAL ${i} (${WORD[kind]})`, order: i });
        }
      }
    }
  }
  return out.sent.length || out.delivered.length ? out : null;
};
