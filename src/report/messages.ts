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
      } else {
        const group = { kind: 'wal' as const, from: m.from, to: m.to, sentAt: m.sentAt, at: m.deliveredAt, label: '', seq: m.deliveredBy, first: m.order, last: m.order, word };
        walGroups.set(key, group);
        out.push(group);
      }
      continue;
    }
    out.push({ kind: m.kind as MessageKind, from: m.from, to: m.to, sentAt: m.sentAt, at: m.deliveredAt, label: m.label, seq: m.deliveredBy });
  }
  for (const g of walGroups.values()) g.label = `${g.first === g.last ? `WAL ${g.first}` : `WALs ${g.first}–${g.last}`} (${g.word})`;
  // In the order delivered (then sent), as the sequence diagram reads them.
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.seq - b.m.seq || a.i - b.i)
    .map(({ m }) => ({ kind: m.kind, from: m.from, to: m.to, sentAt: m.sentAt, at: m.at, label: m.label, seq: m.seq }));
}
