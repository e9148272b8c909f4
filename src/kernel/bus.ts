// The message bus between the clusters (and the external stores): every cross-cluster interaction as
// a message with a sender, a receiver, a kind and its times on the virtual clock.
//
// Sends are read from the log: each applied event is read with the state before and after it, and what
// its reducers reported they touched (engine.ts `Answer`), by the areas' message sources (world.ts
// lists them), which say what it sent, what it delivered and what it dropped. So a live world, a replayed world and the report hold the same messages: replay folds the
// same events through the same sources.
//
// Messages with a receiver (an area's `Receiver` for their kind: WAL shipments today) are in the
// bus's control: each waits in a due-time queue (due.ts) until its due time (sent + the link's
// latency). When one falls due, the world asks the network its fate (`networkFate`): the receiver
// crashed → dropped; the link cut by a partition → held (it waits, and is examined again when the
// partition heals: it then crosses the link, one latency later); otherwise the receiving area's
// handler turns it into the delivery event(s) the world appends to the log, or says `wait` (held until
// something the area names wakes it) or `null` (the link was reset: dropped). A drop at its due time is
// an event in the log (`message-dropped`); drops that follow from an event (a crash, a stream reset)
// are read from that event. Every due time is thus a function of the log: a replayed world continues
// exactly as the original would.
//
// Messages without a receiver are sent and delivered by one event (`now`): a call made and answered
// within a request (a request is one instant of the virtual clock), or a step whose sending the
// event's own time shows (see BusEffects). The network decides them at that instant (`callRefused`):
// delivered when both ends are up and the link between them is not cut, else dropped at once.
//
// Paced messages (`Pacer`) are sent by a process of an area by itself as time passes, without an event
// for each (a connection's heartbeats, every few seconds for as long as it stands): the bus plays them
// in `observe`, before each event, up to that event's instant and on the state before it (nothing
// changes the state between two events), so a live world, a replayed one and a fork play the same
// messages from the same log. What falls due at an instant is played after every event of that
// instant. An event that may have started, changed or ended such a process names it
// (`BusEffects.paced`): its pacer looks at it then, on the state after the event.
// The kernel knows no spec area: kinds and labels are the areas' words.
import { Subject, type Observable } from 'rxjs';
import { DueQueue } from './due.js';
import { NOTHING, type Touch } from './engine.js';
import { isUp, linkKey, type NetworkEvent, type NetworkState } from './network.js';

export interface BusMessage {
  /** Unique in a run, and the same on replay: "wal:dr:east>west:7@12". */
  id: string;
  kind: string;
  from: string;
  to: string;
  /**
   * The ordered stream it belongs to ("wal:dr:east>west"): a receiver takes a stream's messages in
   * `order`; '' for a message of no stream.
   */
  stream: string;
  /** Virtual time it was sent (ms). */
  sentAt: number;
  /** Virtual time it falls due at its receiver (sent + the link's latency), or null for one delivered at once. */
  dueAt: number | null;
  /** Virtual time it arrived, or null while it is in flight (on its way, or held back by a partition). */
  deliveredAt: number | null;
  /** Virtual time it was dropped (its receiver crashed, its link was reset), or null. */
  droppedAt: number | null;
  /** Why it was dropped, in the area's or the network's words ("receiver crashed", "link reset: revoked"). */
  dropReason: string | null;
  /** In an operator's words: "WAL 7 (DR)". */
  label: string;
  /** The sender's position in an ordered stream (a WAL's index), so a receiver takes them in order; 0 otherwise. */
  order: number;
  /**
   * The log position (seq) of the event that sent it, and of the one that delivered or dropped it; a
   * paced message's (`Pacer`) is a fraction between the positions of the two events it came between.
   */
  sentBy: number;
  deliveredBy: number | null;
  droppedBy: number | null;
}

/** A message sent, delivered or dropped (the same message, now with its delivery or drop). */
export interface BusRecord {
  phase: 'sent' | 'delivered' | 'dropped';
  message: BusMessage;
}

/** A message as a source sends it. */
export type SentMessage = Omit<BusMessage, 'deliveredAt' | 'deliveredBy' | 'sentBy' | 'droppedAt' | 'droppedBy' | 'dropReason' | 'dueAt' | 'stream'> & {
  /** Delivered by the same event (a call made and answered within a request, or a step the event's time shows). */
  now?: boolean;
  /** When it falls due (not `now`): sent + the link's latency. */
  dueAt?: number;
  stream?: string;
};

/**
 * A message as the bus holds it: one shape for every kind of message, so V8 gives them all one hidden
 * class with their fields inside the object (a message built by merging the source's literal into
 * another takes some 180 bytes and a hidden class per shape).
 */
class Message implements BusMessage {
  id: string;
  kind: string;
  from: string;
  to: string;
  sentAt: number;
  label: string;
  order: number;
  stream: string;
  dueAt: number | null;
  sentBy: number;
  deliveredAt: number | null = null;
  deliveredBy: number | null = null;
  droppedAt: number | null = null;
  droppedBy: number | null = null;
  dropReason: string | null = null;

  constructor(s: BusMessage | SentMessage, stream: string, dueAt: number | null, sentBy: number) {
    this.id = s.id;
    this.kind = s.kind;
    this.from = s.from;
    this.to = s.to;
    this.sentAt = s.sentAt;
    this.label = s.label;
    this.order = s.order;
    this.stream = stream;
    this.dueAt = dueAt;
    this.sentBy = sentBy;
  }

  /** A copy with the same delivery or drop (a fork's bus holds copies of what was in flight). */
  static copy(m: BusMessage): Message {
    const c = new Message(m, m.stream, m.dueAt, m.sentBy);
    c.deliveredAt = m.deliveredAt;
    c.deliveredBy = m.deliveredBy;
    c.droppedAt = m.droppedAt;
    c.droppedBy = m.droppedBy;
    c.dropReason = m.dropReason;
    return c;
  }
}

/** What one applied event did on the bus. */
export interface BusEffects {
  sent: SentMessage[];
  /**
   * Ids of in-flight messages the event delivered, in the order they are taken; with a label when
   * the delivery tells what the message carried (a merkle sync: up to which WAL).
   */
  delivered: (string | { id: string; label: string })[];
  /** In-flight messages the event made undeliverable (a stream reset), with why. */
  dropped?: { id: string; reason: string }[];
  /** Streams whose waiting messages the event may have unblocked (a connection came up): examined again now. */
  wake?: string[];
  /**
   * Timed work that is not a message: things the event may have changed, to be looked at now by the
   * area's checker (`Checker`), by key ("link:dr:west": has west's DR link dropped?). The due-time
   * queue holds them with the messages, so nothing has to look at every cluster after every event.
   */
  check?: string[];
  /**
   * Timed work falling due at its own time (a reindex ending, a sync job), looked at then by the
   * area's checker (by the key's prefix, as `check`). The key names the work and its due time (one
   * entry per key); at equal due times timed work comes before messages and checks, in `rank` order.
   */
  timed?: TimedCheck[];
  /**
   * Paced processes the event may have started, changed or ended, by key ("heartbeat:dr:west"): the
   * pacer of the key's prefix looks at each now (`Pacer`, cause `event`).
   */
  paced?: string[];
}

/** Timed work a source schedules: see `BusEffects.timed`. */
export interface TimedCheck {
  key: string;
  due: number;
  rank: readonly string[];
}

/** An area's look at something an event may have changed (a check falling due): the events it finds due now, if any. */
export type Checker<S, E> = (state: S, key: string, at: number) => E[];

/** What a source may read of the bus: the messages in flight on a stream, in the order sent. */
export interface BusView {
  onStream(stream: string): readonly BusMessage[];
}

/**
 * An area's reading of one applied event: the messages it sent, delivered and dropped. `touched`: what
 * the event's reducers reported they touched (engine.ts `Answer`), in the order they did.
 */
export type MessageSource<S, E> = (before: S, event: E, after: S, bus: BusView, touched: readonly Touch[]) => BusEffects | null;

/**
 * An area's handler for a message of its kind falling due at a reachable receiver: the events
 * that deliver it (appended to the log; they must deliver it, read back by a source), `'wait'` (held:
 * the receiver is not ready for it yet; examined again when a source wakes its stream), or `drop`
 * with why (the link it travelled was reset, the receiver refused it). `due`: the messages of its stream due by now, in order,
 * itself first, so one delivery can take them all.
 */
export type Receiver<S, E> = (state: S, message: BusMessage, due: readonly BusMessage[], at: number) => E[] | 'wait' | { drop: string };

/** What a paced process did at one look (`Pacer`). */
export interface PacerStep {
  /** Messages it sent (each with its `dueAt`; `now` is not for paced messages). */
  sent?: SentMessage[];
  /** Ids of its messages in flight that arrived. */
  delivered?: string[];
  /** Its messages in flight that are lost, with why. */
  dropped?: { id: string; reason: string }[];
  /** When it is to be looked at again, or null: the process ended. */
  next: number | null;
  /** What it remembers until then, never changed in place (a fork shares it); null when it ended. */
  memo: unknown;
}

/**
 * An area's paced process (a connection's heartbeats), looked at by key: at its own time (`due`: the
 * state is the one that held then, `at` the time it asked for) or because an event named it (`event`:
 * the state after the event, `at` its instant; it may start, end or drop, never do what falls due at
 * `at`: that comes after every event of the instant). `memo`: what it remembered, null at first.
 */
export type Pacer<S> = (state: S, key: string, memo: unknown, at: number, cause: 'due' | 'event') => PacerStep;

/** The network's verdict on a message falling due now. */
export type NetworkFate = 'deliver' | 'held' | 'dropped';

/** A message whose receiver is down is dropped; one across a cut link is held; else it may be delivered. */
export function networkFate(net: NetworkState, m: Pick<BusMessage, 'from' | 'to'>): NetworkFate {
  if (!isUp(net, m.to)) return 'dropped';
  if (m.from !== m.to && net.cut[linkKey(m.from, m.to)] === true) return 'held';
  return 'deliver';
}

/**
 * Why the network cannot carry a message sent and answered at one instant (`now`) between its two
 * ends as they are now, or null when it can: either end down, or the link between them cut. The
 * areas refuse a request whose call the network would not carry (a forwarded write, an unwrap), so
 * such calls are always delivered; a sync job's push across a cut path to its store is dropped (the
 * job failed, its association reads UNKNOWN until a later job gets through).
 */
export function callRefused(net: NetworkState, m: Pick<BusMessage, 'from' | 'to'>): string | null {
  if (!isUp(net, m.to)) return `${m.to} down`;
  if (!isUp(net, m.from)) return `${m.from} down`;
  if (m.from !== m.to && net.cut[linkKey(m.from, m.to)] === true) return `link ${m.from}–${m.to} cut`;
  return null;
}

export class Bus<S extends { network: NetworkState }, E extends { seq?: number; at: number; type: string }> implements BusView {
  /**
   * Every message sent, in order, with its delivery or drop: kept only when asked for (`history`).
   * The history is derived from the log (a replay sends the same messages), and most worlds never
   * read it (property runs, the explorer, a long soak): kept for them, it was most of a world's heap
   * (~450 bytes a message: 26 of 58 MiB at 200 clusters after 20k writes). The world
   * rebuilds it from its log the first time it is read (src/world.ts `messages`).
   */
  private all: BusMessage[] | null;
  private readonly pending = new Map<string, BusMessage>();
  private readonly streams = new Map<string, BusMessage[]>();
  /** When each pending message (with a receiver) is due now: its due time, or later once held and woken. */
  private readonly due = new Map<string, number>();
  private readonly queue = new DueQueue<{ id: string; due: number; check?: true }>();
  /** Checks and timed work scheduled (by key), with when they are due (and timed work's rank). */
  private readonly checks = new Map<string, { due: number; rank?: readonly string[] }>();
  private readonly subject = new Subject<BusRecord>();
  /** Paced processes by key: what each remembers and when it is looked at next (null: only when an event names it). */
  private readonly processes = new Map<string, { memo: unknown; next: number | null; pacer: Pacer<S> }>();
  /** When each paced process is to be looked at (an entry stands while its process's `next` is that time). */
  private readonly paceQueue = new DueQueue<{ key: string; due: number }>();
  /** Paced messages in flight, by id (kept apart from `pending`: the world's advance never takes them, the bus plays them). */
  private readonly pacedInFlight = new Map<string, BusMessage>();
  /** The instant and log position of the last event read: paced messages between two events get a position between theirs. */
  private lastAt = 0;
  private lastSeq = 0;
  private readonly pacers: ReadonlyMap<string, Pacer<S>>;

  constructor(
    private readonly sources: readonly MessageSource<S, E>[],
    options: { history?: boolean; pacers?: ReadonlyMap<string, Pacer<S>> } = {},
  ) {
    this.all = options.history === false ? null : [];
    this.pacers = options.pacers ?? new Map();
  }

  /** Whether it keeps every message (`messages`), or only those in flight. */
  get keepsHistory(): boolean {
    return this.all !== null;
  }

  /** Every message so far, in the order sent, each with its delivery or drop once it happened (a bus keeping its history). */
  get messages(): readonly BusMessage[] {
    if (this.all === null) throw new Error('this bus keeps no history of its messages: only those in flight (inFlight)');
    return this.all;
  }

  /**
   * Keeps every message from now on, after `earlier` (the history so far, rebuilt from the log by
   * another bus that read the same events): a message of it still in flight here is taken as this
   * bus's own object, so its delivery shows in the history.
   */
  keepHistory(earlier: readonly BusMessage[]): void {
    this.all = earlier.map((m) => this.pending.get(m.id) ?? this.pacedInFlight.get(m.id) ?? m);
  }

  /** Messages sent and not (yet) delivered or dropped, in the order sent. */
  get inFlight(): readonly BusMessage[] {
    return [...this.pending.values()];
  }

  /** Paced messages sent and not (yet) delivered or dropped (heartbeats on their way), in the order sent. */
  get pacedInFlightMessages(): readonly BusMessage[] {
    return [...this.pacedInFlight.values()];
  }

  /** Each send, delivery and drop, as it happens. */
  get records$(): Observable<BusRecord> {
    return this.subject.asObservable();
  }

  onStream(stream: string): readonly BusMessage[] {
    return this.streams.get(stream) ?? [];
  }

  /** Whether a queued entry still stands: the message or check is still due then (made once: peeked at every step of a wait). */
  private readonly stands = (q: { id: string; due: number; check?: true }): boolean => (q.check ? this.checks.get(q.id)?.due : this.due.get(q.id)) === q.due;

  /** The in-flight message or the check falling due first, with the time it is due; undefined when none is queued. */
  nextDue(): ({ message: BusMessage; check?: undefined } | { check: string; message?: undefined }) & { due: number } | undefined {
    const top = this.queue.peek(this.stands)?.value;
    if (!top) return undefined;
    return top.check ? { check: top.id, due: top.due } : { message: this.pending.get(top.id)!, due: top.due };
  }

  /** Takes what falls due first off the queue (a message stays in flight until delivered or dropped; a check is done). */
  take(): void {
    const top = this.queue.pop()?.value;
    if (top?.check) this.checks.delete(top.id);
  }

  /** The in-flight messages of a stream due by `at`, in order. */
  dueOn(stream: string, at: number): BusMessage[] {
    const out: BusMessage[] = [];
    for (const m of this.onStream(stream)) if ((this.due.get(m.id) ?? Infinity) <= at) out.push(m);
    return out;
  }

  /** Reads one applied event, with what its reducers reported they touched (`touched`). */
  observe(before: S, event: E, after: S, touched: readonly Touch[] = NOTHING): void {
    // What the paced processes did since the last event, on the state that held meanwhile.
    this.pace(before, event.at, event.seq ?? this.lastSeq + 1);
    const kernel = event as unknown as NetworkEvent;
    switch (kernel.type) {
      case 'message-dropped':
        this.drop(kernel.id, kernel.reason, event);
        break;
      case 'cluster-crashed':
        // A crashed receiver loses what was on its way to it: its connections are gone.
        for (const m of [...this.pending.values()]) if (m.to === kernel.cluster) this.drop(m.id, `${m.to} crashed`, event);
        break;
      case 'links-healed': {
        // Held messages cross the healed link now: due one latency later.
        const healed = kernel.links === 'all' ? null : new Set(kernel.links.map(([a, b]) => linkKey(a, b)));
        this.wake((m) => healed === null || healed.has(linkKey(m.from, m.to)), event.at, event.at + after.network.latencyMs);
        break;
      }
      case 'cluster-restarted':
        this.wake((m) => m.from === kernel.cluster || m.to === kernel.cluster, event.at, event.at);
        break;
    }
    // The clock's own event closes a wait: whatever fell due by then and is still in flight was held
    // then (World.advance examines everything due before it moves the clock). Taking it off the queue
    // here too makes a replayed bus hold exactly what the original held.
    if (event.type === 'time-advanced') {
      for (let top = this.nextDue(); top && top.due <= event.at; top = this.nextDue()) this.take();
    }
    for (const source of this.sources) {
      const effects = source(before, event, after, this, touched);
      if (!effects) continue;
      for (const d of effects.delivered) {
        const m = this.pending.get(typeof d === 'string' ? d : d.id);
        if (!m) continue;
        if (typeof d !== 'string') m.label = d.label;
        m.deliveredAt = event.at;
        m.deliveredBy = event.seq ?? null;
        this.settle(m);
        this.record('delivered', m);
      }
      if (effects.dropped) for (const d of effects.dropped) this.drop(d.id, d.reason, event);
      for (const s of effects.sent) {
        const now = s.now === true;
        const m = new Message(s, s.stream ?? '', now ? null : (s.dueAt ?? event.at), event.seq ?? 0);
        this.all?.push(m);
        this.record('sent', m);
        if (now) {
          // A call answered at this instant crosses the network as it is now, or not at all: it is not
          // held (nothing waits for an answer across a partition within one instant).
          const refused = callRefused(after.network, m);
          if (refused === null) {
            m.deliveredAt = event.at;
            m.deliveredBy = event.seq ?? null;
            this.record('delivered', m);
          } else {
            m.droppedAt = event.at;
            m.droppedBy = event.seq ?? null;
            m.dropReason = refused;
            this.record('dropped', m);
          }
        } else this.enqueue(m, m.dueAt!);
      }
      if (effects.check) for (const key of effects.check) this.schedule(key, event.at);
      if (effects.timed) for (const t of effects.timed) this.schedule(t.key, t.due, t.rank);
      if (effects.wake?.length) {
        const streams = new Set(effects.wake);
        this.wake((m) => streams.has(m.stream), event.at, event.at);
      }
      if (effects.paced) for (const key of effects.paced) this.look(after, key, event.at, 'event', event.seq ?? this.lastSeq + 1);
    }
    this.lastAt = event.at;
    this.lastSeq = event.seq ?? this.lastSeq + 1;
  }

  /** Whether a paced process's queued entry still stands: the process is still to be looked at then. */
  private readonly paceStands = (q: { key: string; due: number }): boolean => this.processes.get(q.key)?.next === q.due;

  /**
   * Plays the paced processes up to (not including) `until`, the instant of the event about to be
   * read (`seq`), on `state`, the state that held since the last event: each look at its time, in
   * time order. What they send, deliver or drop gets a log position between the last event's and
   * this one's, ordered by time (the report's space-time diagram draws one row per position).
   */
  private pace(state: S, until: number, seq: number): void {
    for (;;) {
      const top = this.paceQueue.peek(this.paceStands);
      if (!top || top.due >= until) return;
      this.paceQueue.pop();
      const at = top.value.due;
      const span = until - this.lastAt;
      const position = this.lastSeq + (span > 0 ? (at - this.lastAt + 1) / (span + 2) : 0.5) * Math.max(0, seq - this.lastSeq);
      this.look(state, top.value.key, at, 'due', position);
    }
  }

  /** Asks a paced process's pacer to look at it now, and applies what it did (`position`: the log position its messages record). */
  private look(state: S, key: string, at: number, cause: 'due' | 'event', position: number): void {
    const was = this.processes.get(key);
    const wasNext = was?.next;
    const pacer = was?.pacer ?? this.pacers.get(key.slice(0, key.indexOf(':')));
    if (!pacer) throw new Error(`no pacer for paced process ${key}`);
    const step = pacer(state, key, was?.memo ?? null, at, cause);
    if (step.delivered)
      for (const id of step.delivered) {
        const m = this.pacedInFlight.get(id);
        if (!m) continue;
        this.pacedInFlight.delete(id);
        m.deliveredAt = at;
        m.deliveredBy = position;
        this.record('delivered', m);
      }
    if (step.dropped)
      for (const { id, reason } of step.dropped) {
        const m = this.pacedInFlight.get(id);
        if (!m) continue;
        this.pacedInFlight.delete(id);
        m.droppedAt = at;
        m.droppedBy = position;
        m.dropReason = reason;
        this.record('dropped', m);
      }
    if (step.sent)
      for (const s of step.sent) {
        const m = new Message(s, s.stream ?? '', s.dueAt ?? at, position);
        this.all?.push(m);
        this.record('sent', m);
        this.pacedInFlight.set(m.id, m);
      }
    if (step.memo === null && step.next === null) {
      this.processes.delete(key);
      return;
    }
    if (was) {
      was.memo = step.memo;
      was.next = step.next;
    } else this.processes.set(key, { memo: step.memo, next: step.next, pacer });
    // A look at its time took its entry off the queue; one an event caused left it there, standing while the time is the same.
    if (step.next !== null && (cause === 'due' || step.next !== wasNext)) this.paceQueue.push(step.next, { key, due: step.next });
  }

  /**
   * A copy for a fork: the same messages in flight, due at the same times; the delivered ones left
   * behind. It keeps a history (of those in flight, then its own) when this one does.
   */
  fork(): Bus<S, E> {
    const copy = new Bus<S, E>(this.sources, { history: this.keepsHistory, pacers: this.pacers });
    const queued = new Set(this.queue.values().filter((q) => !q.check && this.stands(q)).map((q) => q.id));
    for (const m of this.pending.values()) {
      const c = Message.copy(m);
      copy.all?.push(c);
      copy.pending.set(c.id, c);
      copy.joinStream(c);
      const due = this.due.get(c.id)!;
      copy.due.set(c.id, due);
      // A message held here (taken off the queue) stays held in the fork until something wakes it.
      if (queued.has(c.id)) copy.queue.push(due, { id: c.id, due });
    }
    for (const [key, { due, rank }] of this.checks) copy.schedule(key, due, rank);
    for (const m of this.pacedInFlight.values()) {
      const c = Message.copy(m);
      copy.all?.push(c);
      copy.pacedInFlight.set(c.id, c);
    }
    for (const [key, p] of this.processes) {
      copy.processes.set(key, { ...p });
      if (p.next !== null) copy.paceQueue.push(p.next, { key, due: p.next });
    }
    copy.lastAt = this.lastAt;
    copy.lastSeq = this.lastSeq;
    return copy;
  }

  /** Schedules a check, unless one for the same key is already waiting (it will look at the state then). */
  private schedule(key: string, due: number, rank?: readonly string[]): void {
    if (this.checks.has(key)) return;
    this.checks.set(key, rank ? { due, rank } : { due });
    this.queue.push(due, { id: key, due, check: true }, rank);
  }

  private enqueue(m: BusMessage, due: number): void {
    this.pending.set(m.id, m);
    this.joinStream(m);
    this.due.set(m.id, due);
    this.queue.push(due, { id: m.id, due });
  }

  /** Puts an in-flight message at the end of its stream, if it has one. */
  private joinStream(m: BusMessage): void {
    if (!m.stream) return;
    const list = this.streams.get(m.stream);
    if (list) list.push(m);
    else this.streams.set(m.stream, [m]);
  }

  /** Messages that fell due by `at` and are still in flight (held) are examined again at `dueAgain`. */
  private wake(which: (m: BusMessage) => boolean, at: number, dueAgain: number): void {
    for (const m of this.pending.values()) {
      const due = this.due.get(m.id)!;
      if (due > at || !which(m)) continue;
      this.due.set(m.id, dueAgain);
      this.queue.push(dueAgain, { id: m.id, due: dueAgain });
    }
  }

  private settle(m: BusMessage): void {
    this.pending.delete(m.id);
    this.due.delete(m.id);
    if (!m.stream) return;
    const list = this.streams.get(m.stream);
    if (!list) return;
    // A stream is taken in order: the message settled is almost always the first still in flight.
    const i = list[0] === m ? 0 : list.indexOf(m);
    if (i < 0) return;
    if (list.length === 1) this.streams.delete(m.stream);
    else if (i === 0) list.shift();
    else list.splice(i, 1);
  }

  /** Publishes a send, delivery or drop to whoever subscribed (nothing is built when nobody did). */
  private record(phase: BusRecord['phase'], message: BusMessage): void {
    if (this.subject.observed) this.subject.next({ phase, message });
  }

  private drop(id: string, reason: string, event: E): void {
    const m = this.pending.get(id);
    if (!m) return;
    m.droppedAt = event.at;
    m.droppedBy = event.seq ?? null;
    m.dropReason = reason;
    this.settle(m);
    this.record('dropped', m);
  }
}
