// The message bus between the clusters (and the external stores): every cross-cluster interaction as
// a message with a sender, a receiver, a kind and its times on the virtual clock. The messages are
// derived, deterministically, from the event log: each applied event is read with the state before
// and after it by the areas' message sources (src/areas.ts lists them), which say what it sent and
// what it delivered. So a live world, a replayed world and the report read the same messages: replay
// folds the same events through the same sources. The network (latency, partitions, crashes) decides
// when the deliveries happen, through the timed processes that append the delivery events.
// The kernel knows no spec area: kinds and labels are the areas' words.
import { Subject, type Observable } from 'rxjs';

export interface BusMessage {
  /** Unique in a run, and the same on replay: "wal:dr:east>west:7". */
  id: string;
  kind: string;
  from: string;
  to: string;
  /** Virtual time it was sent (ms). */
  sentAt: number;
  /** Virtual time it arrived, or null while it is in flight (held back by a partition, a crash, a revocation). */
  deliveredAt: number | null;
  /** In an operator's words: "WAL 7 (DR)". */
  label: string;
  /** The sender's position in an ordered stream (a WAL's index), so a receiver takes them in order; 0 otherwise. */
  order: number;
  /** The log position (seq) of the event that sent it, and of the one that delivered it. */
  sentBy: number;
  deliveredBy: number | null;
}

/** A message sent, or a message delivered (the same message, now with its delivery). */
export interface BusRecord {
  phase: 'sent' | 'delivered';
  message: BusMessage;
}

/** What one applied event did on the bus: messages it sent, and ids of in-flight messages it delivered. */
export interface BusEffects {
  /**
   * Messages the event sent. `now`: delivered by the same event too, a call made and answered within
   * one request (the simulator does not move the clock inside a request), or one whose sending the
   * event's own time already shows (`sentAt` earlier: a connection attempt that arrives now).
   */
  sent: (Omit<BusMessage, 'deliveredAt' | 'deliveredBy' | 'sentBy'> & { now?: boolean })[];
  /** Ids of in-flight messages the event delivered, in the order they are taken. */
  delivered: string[];
}

/**
 * An area's reading of one applied event: the messages it sent and delivered. `inFlight` lists the
 * messages sent and not yet delivered, so a source can deliver them in order.
 */
export type MessageSource<S, E> = (before: S, event: E, after: S, inFlight: readonly BusMessage[]) => BusEffects | null;

export class Bus<S, E extends { seq?: number; at: number }> {
  private readonly all: BusMessage[] = [];
  private readonly pending = new Map<string, BusMessage>();
  private readonly subject = new Subject<BusRecord>();

  constructor(private readonly sources: readonly MessageSource<S, E>[]) {}

  /** Every message so far, in the order sent, each with its delivery once it happened. */
  get messages(): readonly BusMessage[] {
    return this.all;
  }

  /** Messages sent and not (yet) delivered, in the order sent. */
  get inFlight(): readonly BusMessage[] {
    return [...this.pending.values()];
  }

  /** Each send and each delivery, as it happens. */
  get records$(): Observable<BusRecord> {
    return this.subject.asObservable();
  }

  /** Reads one applied event. */
  observe(before: S, event: E, after: S): void {
    for (const source of this.sources) {
      const effects = source(before, event, after, this.pending.size ? [...this.pending.values()] : []);
      if (!effects) continue;
      for (const id of effects.delivered) {
        const m = this.pending.get(id);
        if (!m) continue;
        m.deliveredAt = event.at;
        m.deliveredBy = event.seq ?? null;
        this.pending.delete(id);
        this.subject.next({ phase: 'delivered', message: m });
      }
      for (const { now, ...s } of effects.sent) {
        // Object.assign, not a spread: the sources send messages of several shapes, and a spread at a
        // site that sees several shapes gives every object its own hidden class (V8's megamorphic
        // object clone copies the map): ~1.3 KB of maps per WAL message kept (issue #15, heap).
        const m: BusMessage = Object.assign({}, s, { sentBy: event.seq ?? 0, deliveredAt: null, deliveredBy: null });
        this.all.push(m);
        this.subject.next({ phase: 'sent', message: m });
        if (now) {
          m.deliveredAt = event.at;
          m.deliveredBy = event.seq ?? null;
          this.subject.next({ phase: 'delivered', message: m });
        } else this.pending.set(m.id, m);
      }
    }
  }
}
