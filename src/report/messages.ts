// What crossed the simulated network during a run, read from the event log: a secondary connecting
// to its primary, the initial (merkle) sync, WAL shipments, activation-token unwrap calls, writes a
// performance secondary forwarded, and sync jobs pushing to external stores. The log records each
// delivery as a fact (its time is the event's `at`); the send time is one link latency earlier, the
// network's rule for every message. The run report's space-time diagram and `sequence.md` read these.
import type { SimEvent } from '../areas/cluster/events.js';

export type MessageKind = 'connect' | 'merkle-sync' | 'wal' | 'unwrap' | 'forwarded-write' | 'sync-job';

export interface NetworkMessage {
  kind: MessageKind;
  from: string;
  to: string;
  /** Virtual time it was sent (ms). */
  sentAt: number;
  /** Virtual time it arrived (ms): the event's time. */
  at: number;
  /** In an operator's words: "WALs up to 7 (DR)". */
  label: string;
  /** The log position of the event it was read from. */
  seq: number;
}

const KIND: Record<string, string> = { dr: 'DR', performance: 'performance' };


/**
 * The messages a log shows, in log order. `latencyMs` is the network's one-way latency. `receivedBy`
 * tells, for an event a request appended, which cluster the request was sent to: a KV write that
 * lands on another cluster was forwarded there (a performance secondary forwards replicated writes).
 */
export function messagesOf(log: readonly SimEvent[], latencyMs: number, receivedBy: (seq: number) => string | undefined = () => undefined): NetworkMessage[] {
  const out: NetworkMessage[] = [];
  /** Activation tokens sealed to a public key need no call to the primary; wrapped ones are unwrapped there. */
  const sealed = new Set<string>();
  const push = (kind: MessageKind, from: string, to: string, at: number, label: string, seq: number, latency = latencyMs) =>
    out.push({ kind, from, to, sentAt: Math.max(0, at - latency), at, label, seq });
  for (const raw of log) {
    const e = raw as SimEvent & Record<string, unknown>;
    const seq = e.seq ?? 0;
    switch (e.type) {
      case 'replication-secondary-token-issued':
        if (e.publicKey) sealed.add(String(e.jti));
        break;
      case 'replication-secondary-enabled':
      case 'replication-secondary-primary-updated':
        // Redeeming a response-wrapped token is a call to the primary that must answer (unwrap): a round trip.
        if (typeof e.primary === 'string' && e.jti && !sealed.has(String(e.jti)) && e.via !== 'addresses' && e.via !== 'empty-token')
          push('unwrap', e.cluster as string, e.primary, e.at, `unwrap activation token (${KIND[e.kind as string]})`, seq, 2 * latencyMs);
        break;
      case 'replication-secondary-connected':
        push('connect', e.cluster as string, e.primary as string, e.at, `connect (${KIND[e.kind as string]})`, seq);
        break;
      case 'replication-secondary-synced':
        push('merkle-sync', e.primary as string, e.cluster as string, e.at, `initial sync to WAL ${e.wal} (${KIND[e.kind as string]})`, seq);
        break;
      case 'replication-wal-delivered':
        push('wal', e.primary as string, e.cluster as string, e.at, `WALs up to ${e.wal} (${KIND[e.kind as string]})`, seq);
        break;
      case 'kv-written':
      case 'kv-deleted':
      {
        const origin = receivedBy(seq);
        if (origin !== undefined && origin !== e.cluster) push('forwarded-write', origin, e.cluster as string, e.at, `forwarded ${e.type === 'kv-written' ? 'write' : 'delete'} ${e.mount}${e.key}`, seq);
        break;
      }
      case 'sync-attempted':
        push('sync-job', e.cluster as string, String(e.destination), e.at, `${e.operation} ${e.id} → ${e.outcome}`, seq);
        break;
    }
  }
  return out;
}
