// The event-sourced core. The log is the single source of truth: state is the fold of reducers over
// the events in order, so replaying a log rebuilds the same state without running any handler, clock
// or random generator. Every appended event is also published on an rxjs stream for observers.
import { produce, setUseStrictIteration } from 'immer';
import { Subject, type Observable } from 'rxjs';

// Speed (profiled in BENCHMARKS.md): when immer finalises a draft it visits every property
// of every copied object. Its default "strict" iteration lists them with Reflect.ownKeys (symbols and
// non-enumerable properties too); the state is plain JSON-like data with neither, so Object.keys
// visits exactly the same properties, and is cheaper. Only the engine drafts state.
setUseStrictIteration(false);

// immer's auto-freeze stays on: frozen subtrees are skipped when a draft is finalised, which is
// what makes sharing structure between clusters (a secondary holding its primary's storage) cheap.
// Without it every event would walk every object it touches, shared or not.

/** What every event carries: its kind, its virtual time, and its place in the log. */
export interface BaseEvent {
  type: string;
  /** Virtual time (ms since the simulation began) at which it happened. */
  at: number;
  /** Position in the log, from 1; assigned by the log when appended. */
  seq?: number;
}

/**
 * A reducer writes one event's effect onto a draft of the state (immer style). It may also carry a
 * `direct` form, used by the engine instead of a draft (see `DirectForm`); or be a direct form alone
 * (`DirectReducer`), for a state immer cannot draft whole.
 */
export type Reducer<S, E extends BaseEvent> = ImmerReducer<S, E> | DirectReducer<S, E>;

/** A reducer with a draft form, and maybe a direct one for the cases it covers. */
type ImmerReducer<S, E extends BaseEvent> = ((draft: S, event: E) => void) & { direct?: DirectForm<S, E> };

/**
 * A reducer that is a direct form only: it answers every event (never undefined). A state holding
 * a persistent structure immer does not draft has its reducers drafted by whoever knows how to open
 * that structure as plain objects (the simulator's clusters: src/areas/core/draft.ts).
 */
export interface DirectReducer<S, E extends BaseEvent> {
  direct: (state: S, event: E) => Partial<S> | null;
}

/**
 * The same effect as a reducer's draft form, built without a draft, for the hottest events (a KV
 * write, time passing): it returns the top-level fields of the state that change, as new frozen
 * objects sharing everything unchanged (exactly what immer would have produced), or null when
 * nothing changes; or undefined to leave this event to the draft form (a direct form may cover
 * only the common cases). The engine moves the clock and freezes the new root. Speed:
 * an immer draft costs a proxy per level and a walk over every property of every copied object at
 * the end (a mount's whole key map on each write); this builds the same objects directly.
 */
export type DirectForm<S, E extends BaseEvent> = (state: S, event: E) => Partial<S> | null | undefined;

/** The reducers of every event type; an unknown type is refused rather than silently ignored. */
export type ReducerTable<S, E extends BaseEvent> = { [K in E['type']]?: Reducer<S, Extract<E, { type: K }>> } & { [ROOT]?: Assemble<S> };

/**
 * How a table's state is rebuilt from a direct form's answer (the fields it changed) and the clock:
 * a new frozen root. Without one, the engine spreads the state, which for a frozen object is V8's
 * slow path (~110 ns for a root of seven fields); the owner of the state, knowing its
 * fields, can name them in a literal instead (src/areas/core/state.ts `nextState`).
 */
export type Assemble<S> = (state: S, changed: Partial<S>, now: number) => S;
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
      this.current = applyEvent(this.current, event, this.reducers);
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

/** Applies one event: the reducer for its type, and the clock moves to the event's time. */
export function applyEvent<S extends { now: number }, E extends BaseEvent>(state: S, event: E, reducers: ReducerTable<S, E>): S {
  // Own entries only: a type "constructor" or "toString" found Object's members here and was
  // applied as a no-op, while any other unknown type is refused.
  const reducer = isEventType(reducers, event.type) ? (reducers[event.type as E['type']] as Reducer<S, E>) : undefined;
  if (reducer === undefined || reducer === null) throw new UnknownEventError(String(event.type));
  const changed = reducer.direct?.(state, event);
  if (changed !== undefined) {
    const now = event.at > state.now ? event.at : state.now;
    // As immer: the very same state when nothing changed, else a new frozen root.
    if (changed === null && now === state.now) return state;
    const assemble = reducers[ROOT];
    return assemble ? assemble(state, changed ?? {}, now) : Object.freeze({ ...state, ...changed, now });
  }
  if (typeof reducer !== 'function') throw new Error(`the direct reducer of ${JSON.stringify(event.type)} left the event to a draft form it does not have`);
  return produce(state, (draft) => {
    const d = draft as S;
    if (event.at > d.now) d.now = event.at;
    reducer(d, event);
  });
}

/** Whether the table has a reducer for this type (its own entry: no inherited member counts). */
export function isEventType(reducers: object, type: unknown): boolean {
  return typeof type === 'string' && Object.hasOwn(reducers, type);
}

/** Folds a whole log onto an initial state: replay. */
export function foldEvents<S extends { now: number }, E extends BaseEvent>(initial: S, events: Iterable<E>, reducers: ReducerTable<S, E>): S {
  let state = initial;
  for (const e of events) state = applyEvent(state, e, reducers);
  return state;
}
