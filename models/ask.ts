// The one way the simulator asks a machine of the spec's tables. The facts go in (the machine's
// state as stored, its context, and the event carrying every fact its guards read); the answer comes
// out: the state it moves to and the actions of the row it took, or why it refused — the name of the
// first guard that failed, or that no row of its table takes the event in that state. Handlers ask
// with the real facts and map a refusal to their area's registered refusal; the event records the
// answer; reducers apply it without asking again.
//
// The answer is read from the machine's own state nodes (their `on` rows, guards and targets), the
// way xstate picks a transition: the deepest state's rows first, in order, then its parent's. A row
// is taken when its guard passes; `and`, `or` and `not` are read through. Each row's answer is made
// once and shared, so asking costs the guards' plain functions and nothing else (xstate's own
// `transition` builds an inert actor per call, tens of microseconds, and property runs ask millions
// of times): no memo and no key written by hand. test/models/ask.test.ts holds this reading equal to
// xstate's `transition` on every state and event of every machine.
import { and, not, or, stateIn, type AnyStateMachine, type EventObject } from 'xstate';

/** A state as the world stores it: the path of a leaf state, dot-separated (`secondary.following`). */
export type StateName = string;

/** The machine's answer. `actions` are the names of the taken row's actions, in order. */
export type Answer = { next: StateName; actions: readonly string[] } | { refused: string };

/** The refusal when no row of the table takes the event in this state (no guard was even asked). */
export const NO_ROW = 'no-row';

interface StateNodeLike {
  key: string;
  path: string[];
  type: string;
  parent?: StateNodeLike;
  states: Record<string, StateNodeLike>;
  initial?: { target: readonly StateNodeLike[] };
  on: Record<string, readonly RowLike[]>;
}
interface RowLike {
  guard?: unknown;
  target?: readonly StateNodeLike[];
  actions: readonly unknown[];
}
type GuardImpl = (args: { context: unknown; event: EventObject }, params?: unknown) => boolean;
type Builtin = ((...a: unknown[]) => boolean) & { check: unknown; guards: unknown[] | unknown; stateValue?: unknown };
/** What a guard is asked with: the state it is asked in (for `stateIn`), the context and the event. */
interface GuardArgs {
  state: StateName;
  context: unknown;
  event: EventObject;
}

// xstate's higher-order guards, known by their `check` (a bundler may rename the functions themselves).
const AND_CHECK = (and([]) as unknown as Builtin).check;
const OR_CHECK = (or([]) as unknown as Builtin).check;
const NOT_CHECK = (not('x') as unknown as Builtin).check;
const STATE_IN_CHECK = (stateIn('x') as unknown as Builtin).check;
const isAnd = (g: unknown): boolean => typeof g === 'function' && (g as Builtin).check === AND_CHECK;

/** The leaf state a stored name stands for (a compound state: its initial child, as xstate enters it). */
function nodeOf(machine: AnyStateMachine, name: StateName): StateNodeLike {
  let node = machine.root as unknown as StateNodeLike;
  for (const key of name.split('.')) {
    const child = node.states[key];
    if (!child) throw new Error(`machine ${machine.id}: no state "${name}"`);
    node = child;
  }
  return node;
}

/** The stored name of the leaf state a row enters. */
function enteredName(node: StateNodeLike): StateName {
  let n = node;
  while (n.type === 'compound' && n.initial) n = n.initial.target[0];
  return n.path.join('.');
}

/** The first guard that fails, by name (`!name` for a `not`), or null when the guard passes. */
function failingGuard(machine: AnyStateMachine, guard: unknown, args: GuardArgs): string | null {
  if (guard === undefined) return null;
  const impls = machine.implementations.guards as Record<string, GuardImpl | Builtin>;
  if (typeof guard === 'string' || (typeof guard === 'object' && guard !== null)) {
    const name = typeof guard === 'string' ? guard : (guard as { type: string }).type;
    const params = typeof guard === 'object' ? (guard as { params?: unknown }).params : undefined;
    const impl = impls[name];
    if (!impl) throw new Error(`machine ${machine.id}: guard "${name}" is not implemented`);
    if ('check' in impl) return failingGuard(machine, impl, args) === null ? null : name;
    return (impl as GuardImpl)(args, params) ? null : name;
  }
  if (typeof guard === 'function' && 'check' in guard) {
    const b = guard as Builtin;
    const inner = (Array.isArray(b.guards) ? b.guards : [b.guards]) as unknown[];
    if (b.check === AND_CHECK) {
      for (const g of inner) {
        const failed = failingGuard(machine, g, args);
        if (failed !== null) return failed;
      }
      return null;
    }
    if (b.check === NOT_CHECK) {
      const failed = failingGuard(machine, inner[0], args);
      return failed === null ? `!${guardName(inner[0])}` : null;
    }
    if (b.check === OR_CHECK) {
      const failures: string[] = [];
      for (const g of inner) {
        const failed = failingGuard(machine, g, args);
        if (failed === null) return null;
        failures.push(failed);
      }
      return failures.join('|');
    }
    if (b.check === STATE_IN_CHECK) return isIn(machine, args.state, b.stateValue) ? null : `in:${String(b.stateValue)}`;
  }
  if (typeof guard === 'function') return (guard as GuardImpl)(args) ? null : 'inline';
  throw new Error(`machine ${machine.id}: a guard of an unknown form`);
}

/** Whether the stored state is, or is inside, the state a `stateIn` guard names (`#machine.a.b` or a path `a.b`). */
function isIn(machine: AnyStateMachine, name: StateName, stateValue: unknown): boolean {
  if (typeof stateValue !== 'string') throw new Error(`machine ${machine.id}: stateIn with a state value object cannot be asked`);
  let path = statePaths.get(stateValue);
  if (path === undefined) {
    path = stateValue.startsWith('#') ? (machine.getStateNodeById(stateValue) as unknown as StateNodeLike).path.join('.') : stateValue;
    statePaths.set(stateValue, path);
  }
  return name === path || (name.length > path.length && name.charCodeAt(path.length) === 46 && name.startsWith(path));
}
/** Each `stateIn` argument's state path, found once (a machine's ids are fixed). */
const statePaths = new Map<string, string>();

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null) return (guard as { type: string }).type;
  return typeof guard === 'function' ? guard.name || 'inline' : 'inline';
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String((action as { type: unknown }).type);
  throw new Error('an inline action cannot be named in an answer');
}

/** A row as asked: its guard and the answer it gives when taken (made once per row, shared). */
interface Row {
  guard: unknown;
  answer: Answer;
}

const rowsOf = new WeakMap<AnyStateMachine, Map<StateName, Map<string, readonly Row[]>>>();

/** The rows that may take `type` in `name`, in the order xstate tries them, each with its answer (found once per state and event type). */
function rows(machine: AnyStateMachine, name: StateName, type: string): readonly Row[] {
  let byName = rowsOf.get(machine);
  if (!byName) rowsOf.set(machine, (byName = new Map()));
  let byType = byName.get(name);
  if (!byType) byName.set(name, (byType = new Map()));
  let list = byType.get(type);
  if (!list) {
    const found: Row[] = [];
    for (let node: StateNodeLike | undefined = nodeOf(machine, name); node; node = node.parent)
      for (const row of node.on[type] ?? []) {
        const target = row.target && row.target.length > 0 ? row.target[0] : null;
        // A row without a target stays where it is.
        const answer: Answer = Object.freeze({ next: target ? enteredName(target) : name, actions: Object.freeze(row.actions.map(actionName)) });
        found.push({ guard: row.guard, answer });
      }
    byType.set(type, (list = found));
  }
  return list;
}

/**
 * The answer of the row that takes events of `type` in `name` with action `action`: the row a
 * handler took, named by what the event records (its type and the row's action), applied without
 * asking the guards again. Null when no row of the table is that row.
 */
export function rowTaking(machine: AnyStateMachine, name: StateName, type: string, action: string): { next: StateName; actions: readonly string[] } | null {
  for (const row of rows(machine, name, type)) {
    const answer = row.answer as { next: StateName; actions: readonly string[] };
    if (answer.actions.includes(action)) return answer;
  }
  return null;
}

/** The states some row of the table moves `name` to on events of `type`, whatever the facts (the guards are not asked). */
export function targets(machine: AnyStateMachine, name: StateName, type: string): readonly StateName[] {
  return rows(machine, name, type).map((row) => (row.answer as { next: StateName }).next);
}

/**
 * Asks `machine`, in state `name` with `context`, about `event`. When no row's guard passes, the
 * refusal names the first failing guard of the row that got furthest (the most guards passed; the
 * first such row on a tie), so rows written one per outcome read as one check after another.
 */
export function ask(machine: AnyStateMachine, name: StateName, context: unknown, event: EventObject): Answer {
  const taken = take(machine, name, context, event);
  if (taken !== null) return taken;
  const candidates = rows(machine, name, event.type);
  if (candidates.length === 0) return REFUSED_NO_ROW;
  const args: GuardArgs = { state: name, context, event };
  let best = { passed: -1, failed: NO_ROW };
  for (const row of candidates) {
    let passed = 0;
    let failed: string | null = null;
    for (const g of andParts(row.guard)) {
      failed = failingGuard(machine, g, args);
      if (failed !== null) break;
      passed++;
    }
    if (failed !== null && passed > best.passed) best = { passed, failed };
  }
  return { refused: best.failed };
}

/**
 * The row the machine takes, without saying why when it takes none: for a caller that only needs to
 * know whether the event is taken (a connection observed at every WAL delivered).
 */
export function take(machine: AnyStateMachine, name: StateName, context: unknown, event: EventObject): { next: StateName; actions: readonly string[] } | null {
  const candidates = rows(machine, name, event.type);
  if (candidates.length === 0) return null;
  const args: GuardArgs = { state: name, context, event };
  for (const row of candidates) if (failingGuard(machine, row.guard, args) === null) return row.answer as { next: StateName; actions: readonly string[] };
  return null;
}

const REFUSED_NO_ROW: Answer = Object.freeze({ refused: NO_ROW });

function andParts(guard: unknown): unknown[] {
  if (isAnd(guard)) {
    const inner = (guard as Builtin).guards;
    return Array.isArray(inner) ? inner : [inner];
  }
  return guard === undefined ? [] : [guard];
}
