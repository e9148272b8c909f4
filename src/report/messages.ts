// What crossed the simulated network during a run, for the run report's space-time diagram and
// `sequence.md`: the messages of the bus between the clusters (src/kernel/bus.ts; a secondary
// connecting to its primary, the merkle sync, WAL shipments, activation-token unwrap calls, sync
// jobs pushing to external stores), each with its real send and delivery time on the virtual clock.
// WALs one delivery brought are drawn as one arrow, from the first one's sending (none for WALs a
// merkle sync brought: the sync's arrow carries them). A write a performance secondary forwarded
// to its primary (KV, KV-v2 config and metadata, sync, plugin catalog) is a message too; a sync
// job's push dropped across a cut path to its store is not drawn (only delivered messages are).
// Heartbeats (an echo and its answer every 5 s on each connection) are thinned: of those crossing
// one connection between two events of the log (a long wait), the first and last round trips are
// drawn and the last echo's label says how many were left out; a heartbeat still on its way at the
// end is not a lost message (a dropped one is).
import type { BusMessage } from '../kernel/bus.js';

export type MessageKind = 'connect' | 'merkle-sync' | 'wal' | 'unwrap' | 'forwarded-write' | 'sync-job' | 'heartbeat';

export interface NetworkMessage {
  kind: MessageKind;
  from: string;
  to: string;
  /** Virtual time it was sent (ms). */
  sentAt: number;
  /** Virtual time it arrived (ms). */
  at: number;
  /** In an operator's words: "WALs 5–7 (DR)". */
  label: string;
  /** The log position of the event that delivered it. */
  seq: number;
  /** The log position of the event that sent it (the first WAL's, for WALs delivered together). */
  sentBy: number;
}

/** Round trips of heartbeats drawn at each end of a stretch between two events; the rest are counted. */
const HEARTBEATS_KEPT = 1;

/**
 * The delivered heartbeats to leave out, and the label the last one drawn of each thinned stretch
 * takes instead: by connection (the echo's direction and kind) and by the event that ended the
 * stretch, the first and last `HEARTBEATS_KEPT` round trips are kept.
 */
function thinnedHeartbeats(bus: readonly BusMessage[]): { left: Set<BusMessage>; labels: Map<BusMessage, string> } {
  const stretches = new Map<string, BusMessage[]>();
  for (const m of bus) {
    if (m.kind !== 'heartbeat' || m.deliveredBy === null) continue;
    // An echo and its answer share the heartbeat's number (`order`) and one connection key.
    const answer = m.label.includes(' answer ');
    const [a, b] = answer ? [m.to, m.from] : [m.from, m.to];
    const key = `${a}>${b} ${/\(([^)]*)\)$/.exec(m.label)?.[1] ?? ''}@${Math.ceil(m.deliveredBy)}`;
    const list = stretches.get(key);
    if (list) list.push(m);
    else stretches.set(key, [m]);
  }
  const left = new Set<BusMessage>();
  const labels = new Map<BusMessage, string>();
  for (const list of stretches.values()) {
    const numbers = [...new Set(list.map((m) => m.order))].sort((x, y) => x - y);
    if (numbers.length <= 2 * HEARTBEATS_KEPT + 1) continue;
    const dropped = numbers.slice(HEARTBEATS_KEPT, numbers.length - HEARTBEATS_KEPT);
    const gone = new Set(dropped);
    for (const m of list) if (gone.has(m.order)) left.add(m);
    const lastEcho = list.find((m) => m.order === numbers[numbers.length - HEARTBEATS_KEPT] && !m.label.includes(' answer '));
    if (lastEcho) labels.set(lastEcho, `${lastEcho.label}, after ${dropped.length} more not drawn (${dropped[0]}–${dropped[dropped.length - 1]})`);
  }
  return { left, labels };
}

/** The delivered messages of a run, in the order delivered (heartbeats thinned: see the head of this file). */
export function messagesOf(bus: readonly BusMessage[]): NetworkMessage[] {
  const out: NetworkMessage[] = [];
  const thinned = thinnedHeartbeats(bus);
  const walGroups = new Map<string, NetworkMessage & { first: number; last: number; word: string }>();
  // WALs a merkle sync brought in line arrive with it: its arrow carries them.
  const syncs = new Set(bus.filter((m) => m.kind === 'merkle-sync' && m.deliveredBy !== null).map((m) => `${m.from}>${m.to}@${m.deliveredBy}`));
  for (const m of bus) {
    if (m.deliveredAt === null || m.deliveredBy === null) continue;
    if (m.kind === 'wal') {
      if (syncs.has(`${m.from}>${m.to}@${m.deliveredBy}`)) continue;
      // One arrow per delivery: the WALs it brought, from the first one's sending.
      const key = `${m.from}>${m.to}@${m.deliveredBy}`;
      const word = /\(([^)]*)\)$/.exec(m.label)?.[1] ?? '';
      const g = walGroups.get(key);
      if (g) {
        g.first = Math.min(g.first, m.order);
        g.last = Math.max(g.last, m.order);
        g.sentAt = Math.min(g.sentAt, m.sentAt);
        g.sentBy = Math.min(g.sentBy, m.sentBy);
      } else {
        const group = { kind: 'wal' as const, from: m.from, to: m.to, sentAt: m.sentAt, at: m.deliveredAt, label: '', seq: m.deliveredBy, sentBy: m.sentBy, first: m.order, last: m.order, word };
        walGroups.set(key, group);
        out.push(group);
      }
      continue;
    }
    if (thinned.left.has(m)) continue;
    out.push({ kind: m.kind as MessageKind, from: m.from, to: m.to, sentAt: m.sentAt, at: m.deliveredAt, label: thinned.labels.get(m) ?? m.label, seq: m.deliveredBy, sentBy: m.sentBy });
  }
  for (const g of walGroups.values()) g.label = `${g.first === g.last ? `WAL ${g.first}` : `WALs ${g.first}–${g.last}`} (${g.word})`;
  // In the order delivered (then sent), as the sequence diagram reads them.
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.seq - b.m.seq || a.i - b.i)
    .map(({ m }) => ({ kind: m.kind, from: m.from, to: m.to, sentAt: m.sentAt, at: m.at, label: m.label, seq: m.seq, sentBy: m.sentBy }));
}

/** A message that never arrived: dropped on the way, or still in flight (held, or due later) when the run ended. */
export interface LostMessage {
  kind: MessageKind;
  from: string;
  to: string;
  sentAt: number;
  /** When it was dropped, or null when it was still on its way at the end. */
  droppedAt: number | null;
  /** Why, in the network's or the area's words ("receiver crashed", "link reset: …"); null while in flight. */
  reason: string | null;
  /** In an operator's words: "WALs 3–4 (DR)". */
  label: string;
  /** The log positions of the event that sent it (the first, for WALs) and of the one that dropped it (null in flight). */
  sentBy: number;
  droppedBy: number | null;
}

/**
 * The messages of a run that never arrived, in the order sent: WALs dropped together (or left in
 * flight together) on one stream are one entry, like the arrows of delivered WALs.
 */
export function lostMessagesOf(bus: readonly BusMessage[]): LostMessage[] {
  const out: (LostMessage & { first: number; last: number; word: string })[] = [];
  const groups = new Map<string, (typeof out)[number]>();
  for (const m of bus) {
    if (m.deliveredAt !== null) continue;
    // A heartbeat on its way when the run ended is not lost: the next one would follow it.
    if (m.kind === 'heartbeat' && m.droppedAt === null) continue;
    const word = /\(([^)]*)\)$/.exec(m.label)?.[1] ?? '';
    const key = m.kind === 'wal' ? `${m.stream}@${m.droppedBy ?? 'flight'}` : null;
    const g = key === null ? undefined : groups.get(key);
    if (g) {
      g.first = Math.min(g.first, m.order);
      g.last = Math.max(g.last, m.order);
      g.sentAt = Math.min(g.sentAt, m.sentAt);
      g.sentBy = Math.min(g.sentBy, m.sentBy);
      continue;
    }
    const entry = { kind: m.kind as MessageKind, from: m.from, to: m.to, sentAt: m.sentAt, droppedAt: m.droppedAt, reason: m.dropReason, label: m.label, sentBy: m.sentBy, droppedBy: m.droppedBy, first: m.order, last: m.order, word };
    if (key !== null) groups.set(key, entry);
    out.push(entry);
  }
  return out.map(({ first, last, word, ...m }) => ({
    ...m,
    label: m.kind === 'wal' ? `${first === last ? `WAL ${first}` : `WALs ${first}–${last}`} (${word})` : m.label,
  }));
}
