// The contract an area of the spec fulfils, and how a list of areas becomes the world's tables. The
// kernel knows no area: the state, event, route, monitor and command types are parameters. The one
// list of areas is src/areas.ts; src/world.ts builds a world from it, src/check/catalogue.ts runs
// its monitors and src/explore/commands/index.ts draws its commands.
import type { Checker, MessageSource, Pacer, Receiver } from './bus.js';
import type { BaseEvent, ReducerTable } from './engine.js';
import type { Refused } from './refusal.js';

/** What an area of the spec gives the world. Lists are in the area's own order; an area leaves out what it lacks. */
export interface Area<S, E extends BaseEvent, Route, Monitor, Command> {
  /** The area's name, as its folder and the prefix of its refusal codes (`replication.mustPromote`). */
  readonly name: string;
  /** Its README, from the repository root: the area's rules in the spec's words, each with the file that holds it. */
  readonly readme: string;
  /** How each of its events changes the state (evolve): one area reduces an event type, no other. */
  readonly reducers: ReducerTable<S, E>;
  /** Its endpoints of the spec's path table (`sys/...`), and paths of the service it does not simulate (501). */
  readonly routes: readonly Route[];
  /** Endpoints relative to a mount, by mount type (the KV engines). */
  readonly mountRoutes: Readonly<Record<string, readonly Route[]>>;
  /** What it sends between the clusters over the bus, read from each applied event. */
  readonly messages: readonly MessageSource<S, E>[];
  /** Its handlers for the bus messages it receives, by message kind (`wal`, `connect` …): one area receives a kind. */
  readonly receivers: Readonly<Record<string, Receiver<S, E>>>;
  /** Its handlers for the checks its sources schedule on the due-time queue, by the check key's prefix (`link:…`). */
  readonly checkers: Readonly<Record<string, Checker<S, E>>>;
  /** Its paced processes (messages sent as time passes without an event each: heartbeats), by the process key's prefix (`heartbeat:…`). */
  readonly pacers: Readonly<Record<string, Pacer<S>>>;
  /**
   * Upkeep the area does after every event, whoever reduces it (replication keeps what a primary held
   * as of the WALs still in flight): wraps the world's whole reducer table.
   */
  readonly upkeep: ((table: ReducerTable<S, E>) => ReducerTable<S, E>) | null;
  /** The invariants and hazards of invariants.md it checks (one monitor per id). */
  readonly monitors: readonly Monitor[];
  /** The operator-level commands property runs and the explorer draw from. */
  readonly commands: readonly Command[];
  /** Its registered refusals (kernel/refusal.ts), by name: each code is `<name>.<key>`. */
  readonly refusals: Readonly<Record<string, (...params: any) => Refused>>;
}

/** An area with only some of the parts: the rest empty. */
export function defineArea<S, E extends BaseEvent, Route, Monitor, Command>(
  parts: Pick<Area<S, E, Route, Monitor, Command>, 'name' | 'readme'> & Partial<Area<S, E, Route, Monitor, Command>>,
): Area<S, E, Route, Monitor, Command> {
  return { reducers: {}, routes: [], mountRoutes: {}, messages: [], receivers: {}, checkers: {}, pacers: {}, upkeep: null, monitors: [], commands: [], refusals: {}, ...parts };
}

type AnyArea = Area<any, any, unknown, unknown, unknown>;
type ListPart = 'routes' | 'messages' | 'monitors' | 'commands';

/** One part of every area, joined in the list's order (the router tries routes in that order, the explorer commands). */
export function gather<A extends AnyArea, K extends ListPart>(areas: readonly A[], part: K): A[K][number][] {
  return areas.flatMap((a) => a[part] as A[K][number][]);
}

/**
 * Every area's reducers in one table, after the kernel's own (`base`: the network's). An event type
 * reduced by two areas is a programming error: which reducer ran would depend on the list's order.
 */
export function gatherReducers<S, E extends BaseEvent>(areas: readonly Pick<Area<S, E, unknown, unknown, unknown>, 'name' | 'reducers'>[], base: ReducerTable<S, E> = {}): ReducerTable<S, E> {
  const owner = new Map<string, string>(Object.keys(base).map((t) => [t, 'the kernel']));
  const table: Record<string, unknown> = { ...base };
  for (const a of areas)
    for (const [type, reducer] of Object.entries(a.reducers)) {
      const other = owner.get(type);
      if (other) throw new Error(`event type ${type} is reduced by ${other} and by area ${a.name}`);
      owner.set(type, `area ${a.name}`);
      table[type] = reducer;
    }
  return table as ReducerTable<S, E>;
}

/**
 * Every area's reducers (after the kernel's `base`), each followed by every area's upkeep, in the
 * list's order.
 */
export function gatherWorldReducers<S, E extends BaseEvent>(areas: readonly Pick<Area<S, E, unknown, unknown, unknown>, 'name' | 'reducers' | 'upkeep'>[], base: ReducerTable<S, E> = {}): ReducerTable<S, E> {
  return areas.reduce((table, a) => (a.upkeep ? a.upkeep(table) : table), gatherReducers(areas, base));
}

/**
 * Every area's handlers of one keyed part (bus receivers by message kind, checkers by key prefix). A key
 * two areas claim is a programming error, as for reducers.
 */
export function gatherKeyed<A extends AnyArea, K extends 'receivers' | 'checkers' | 'pacers'>(areas: readonly A[], part: K): Map<string, A[K][string]> {
  const out = new Map<string, A[K][string]>();
  for (const a of areas)
    for (const [key, handler] of Object.entries(a[part]) as [string, A[K][string]][]) {
      if (out.has(key)) throw new Error(`${part} key ${key} is claimed twice (area ${a.name})`);
      out.set(key, handler);
    }
  return out;
}

/** Every area's mount routes, by mount type, in the list's order. */
export function gatherMountRoutes<Route>(areas: readonly Pick<Area<any, any, Route, unknown, unknown>, 'mountRoutes'>[]): Record<string, Route[]> {
  const out: Record<string, Route[]> = {};
  for (const a of areas) for (const [type, routes] of Object.entries(a.mountRoutes)) (out[type] ??= []).push(...routes);
  return out;
}
