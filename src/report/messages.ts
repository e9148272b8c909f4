// What crossed the simulated network during a run, for the run report's space-time diagram and
// `sequence.md`: the messages of the bus between the clusters (src/kernel/bus.ts; a secondary
// connecting to its primary, the merkle sync, WAL shipments, activation-token unwrap calls, sync
// jobs pushing to external stores), each with its real send and delivery time on the virtual clock.
// WALs one delivery brought are drawn as one arrow, from the first one's sending (none for WALs a
// merkle sync brought: the sync's arrow carries them). A write a performance secondary forwarded
// to its primary (KV, KV-v2 config and metadata, sync, plugin catalog) is a message too; a sync
// job's push dropped across a cut path to its store is not drawn (only delivered messages are).
import type { BusMessage } from '../kernel/bus.js';

export type MessageKind = 'connect' | 'merkle-sync' | 'wal' | 'unwrap' | 'forwarded-write' | 'sync-job';

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

/** The delivered messages of a run, in the order delivered. */
export function messagesOf(bus: readonly BusMessage[]): NetworkMessage[] {
  const out: NetworkMessage[] = [];
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
    out.push({ kind: m.kind as MessageKind, from: m.from, to: m.to, sentAt: m.sentAt, at: m.deliveredAt, label: m.label, seq: m.deliveredBy, sentBy: m.sentBy });
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
