// The event-sourced core. The log is the single source of truth: state is the fold of reducers over
// the events in order, so replaying a log rebuilds the same state without running any handler, clock
// or random generator. Every appended event is also published on an rxjs stream for observers.
import { Subject, type Observable } from 'rxjs';

/** What every event carries: its kind, its virtual time, and its place in the log. */
export interface BaseEvent {
  type: string;
  /** Virtual time (ms since the simulation began) at which it happened. */
  at: number;
  /** Position in the log, from 1; assigned by the log when appended. */
  seq?: number;
}

/**
 * What reducers report they touched beside the state they return: what a reader of the event (the
 * bus's message sources) needs and the state after it does not say by itself (a WAL written, a
 * link reset). The kernel knows no area: each names its own reports here (a `declare module` block
 * adding a member whose type is the report), and `Touch` is any of them.
 */
export interface Touches {}
export type Touch = Touches[keyof Touches];

/**
 * A reducer's answer: the top-level fields of the state that change, and under `touched` (no field of
 * the state) what it touched, in the order it did.
 */
export type Answer<S> = Partial<S> & { readonly touched?: readonly Touch[] };

/**
 * A reducer: one event's effect on the state, as a plain function of the state before it. It returns
 * the top-level fields of the state that change, as new frozen objects sharing everything unchanged,
 * with what it touched (`Answer`), or null when nothing changes; the engine moves the clock and builds
 * the new frozen root. A reducer may build what it returns any way it likes (immer's `produce` on the
 * one object it edits, or literals where a benchmark asked for them); it never changes the state it is given.
 */
export type Reducer<S, E extends BaseEvent> = (state: S, event: E) => Answer<S> | null;

/** The reducers of every event type; an unknown type is refused rather than silently ignored. */
export type ReducerTable<S, E extends BaseEvent> = { [K in E['type']]?: Reducer<S, Extract<E, { type: K }>> } & { [ROOT]?: Assemble<S> };

/**
 * How a table's state is rebuilt from a reducer's answer (the fields it changed; its `touched` is no
 * field) and the clock:
 * a new frozen root. Without one, the engine spreads the state, which for a frozen object is V8's
 * slow path (~110 ns for a root of seven fields); the owner of the state, knowing its
 * fields, can name them in a literal instead (src/areas/core/state.ts `nextState`).
 */
export type Assemble<S> = (state: S, changed: Answer<S>, now: number) => S;
export const ROOT: unique symbol = Symbol('replsim.root');

/** A table that rebuilds its state's root with `assemble`. */
export function withRoot<S, E extends BaseEvent>(table: ReducerTable<S, E>, assemble: Assemble<S>): ReducerTable<S, E> {
  return Object.assign(table, { [ROOT]: assemble });
}

export class UnknownEventError extends Error {
  constructor(readonly eventType: string) {
    super(`no reducer for event type "${eventType}"`);
  }
}

/** An append-only event log with the state it folds to, published as a stream. */
export class EventStore<S extends { now: number }, E extends BaseEvent> {
  private current: S;
  private reported: readonly Touch[] = NOTHING;
  private readonly entries: E[] = [];
  private readonly subject = new Subject<E>();

  /** `seqBase`: how many events came before this store's first (a fork continues its parent's numbering). */
  constructor(
    initial: S,
    private readonly reducers: ReducerTable<S, E>,
    private readonly seqBase = 0,
  ) {
    this.current = initial;
  }

  get state(): S {
    return this.current;
  }

  /** What the reducers of the last event appended reported they touched (`Answer`), for whoever reads that event. */
  get touched(): readonly Touch[] {
    return this.reported;
  }

  get log(): readonly E[] {
    return this.entries;
  }

  /** The seq of the last event appended (the parent's count, for a fork that appended nothing). */
  get lastSeq(): number {
    return this.seqBase + this.entries.length;
  }

  /** Every event appended from now on, after the state has absorbed it. */
  get events$(): Observable<E> {
    return this.subject.asObservable();
  }

  /** Appends events in order; each is applied to the state before the next, then published. */
  append(...events: E[]): void {
    for (const event of events) {
      event.seq = this.seqBase + this.entries.length + 1;
      const answer = reduce(this.current, event, this.reducers);
      this.reported = answer?.touched ?? NOTHING;
      this.current = assemble(this.current, event, answer, this.reducers);
      this.entries.push(event);
      this.subject.next(event);
    }
  }

  /**
   * Starts a store from a state someone else reached (a fork), with an empty log of its own whose
   * numbering continues after `seqBase` events, so the parent's log followed by the fork's reads as one.
   */
  static fromState<S extends { now: number }, E extends BaseEvent>(state: S, reducers: ReducerTable<S, E>, seqBase = 0): EventStore<S, E> {
    return new EventStore(state, reducers, seqBase);
  }
}

/** Nothing touched: the answer of a reducer that reported nothing. */
export const NOTHING: readonly Touch[] = Object.freeze([]);

/** Applies one event: the reducer for its type, and the clock moves to the event's time. */
export function applyEvent<S extends { now: number }, E extends BaseEvent>(state: S, event: E, reducers: ReducerTable<S, E>): S {
  return assemble(state, event, reduce(state, event, reducers), reducers);
}

/** The answer of the reducer for the event's type (what it changes and touched), or null when nothing changes. */
export function reduce<S, E extends BaseEvent>(state: S, event: E, reducers: ReducerTable<S, E>): Answer<S> | null {
  // Own entries only: a type "constructor" or "toString" found Object's members here and was
  // applied as a no-op, while any other unknown type is refused.
  const reducer = isEventType(reducers, event.type) ? (reducers[event.type as E['type']] as Reducer<S, E>) : undefined;
  if (reducer === undefined || reducer === null) throw new UnknownEventError(String(event.type));
  return reducer(state, event);
}

/** The state after an event from its reducer's answer (`reduce`): the clock moves to the event's time. */
export function assemble<S extends { now: number }, E extends BaseEvent>(state: S, event: E, changed: Answer<S> | null, reducers: ReducerTable<S, E>): S {
  const now = event.at > state.now ? event.at : state.now;
  // The very same state when nothing changed, else a new frozen root.
  if (changed === null && now === state.now) return state;
  const root = reducers[ROOT];
  if (root) return root(state, changed ?? {}, now);
  const { touched: _touched, ...fields } = changed ?? {};
  return Object.freeze({ ...state, ...fields, now });
}

/** Whether the table has a reducer for this type (its own entry: no inherited member counts). */
export function isEventType(reducers: object, type: unknown): boolean {
  return typeof type === 'string' && Object.hasOwn(reducers, type);
}
