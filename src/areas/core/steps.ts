// The scenario steps an area declares: its faults (`corrupt`, `destination-fault`, `reload`) and its
// inspections (`inspect`). A step is declared once, in its area's `steps.ts`, and read from there by
// the scenario schema (its shape, its JSON Schema and the cluster it names), the runner and `serve`'s
// control listener (what it does and its title) and `replsim ctl` (its command line). The world has
// no method of its own for any of them: it hands a step the world's facts and appends what it answers.
//
// The network's and the clock's steps (`wait`, `partition`, `slow`, `heal`, `crash`, `restart`) and
// the requests are the simulator's own and stay with the world and the runner.
import type { z } from 'zod/v4';
import type { SimEvent } from './events.js';
import type { ClusterState, SimState } from './state.js';

/** A caller's mistake in driving a world (an unknown cluster, a negative wait, a fault on a destination that does not exist): nothing changed. */
export class WorldUsageError extends Error {}

/**
 * The parsed steps the areas declare, by action key (each area adds its own by declaration merging,
 * as it adds its events): `corrupt: CorruptStep` …, each with `kind` its key.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface AreaSteps {}

/** The action key of a step an area declares. */
export type AreaStepAction = keyof AreaSteps & string;
/** One parsed area step (its `kind` is its action key). */
export type AreaStep = AreaSteps[AreaStepAction];

/** The building blocks of the scenario schema a step's shape is made of, so every step reads and errs alike. */
export interface StepParts {
  /** A map with these keys and no other; an unknown key is reported at its own line, with a guess at the key meant. */
  strictObject<T extends z.ZodRawShape>(what: string, shape: T): z.ZodTypeAny;
  /** A cluster's name: the schema checks it against the scenario's clusters (`clusterKey`). */
  clusterRef: z.ZodString;
}

/** What a step may read of the world and do to it. */
export interface StepWorld {
  readonly state: SimState;
  /** The cluster by name, or a `WorldUsageError` naming the clusters there are. */
  cluster(name: string): ClusterState;
  /** Records what the step did: the event is folded at the world's `now`. */
  append(event: SimEvent): void;
}

/** What an inspection read: shown in the step's record, and matched against the step's `expect`. */
export interface Inspected {
  /** The thing read, by the name results.json gives it (`codehost/gh1`). */
  store: string;
  contents: unknown;
}

/** A step an area declares, of action key `K`. */
export interface StepDeclaration<K extends AreaStepAction = AreaStepAction> {
  action: K;
  /** What the step does, for the JSON Schema and the docs. */
  describe: string;
  /** The value under the action key, and how it becomes the parsed step's fields (besides `kind` and `name`). */
  content(parts: StepParts): z.ZodTypeAny;
  fields(content: any): Omit<AreaSteps[K], 'kind' | 'name' | 'expect'>;
  /** The key of the content that names a cluster of the scenario, if any. */
  clusterKey?: string;
  /** An inspection takes an `expect`, a partial deep match on what it read: what it matches, for the JSON Schema. */
  inspects?: string;
  /**
   * Its `replsim ctl` command line (`usage` after `replsim ctl`; `arity` arguments), if it has one.
   * `serve`'s control listener takes every fault as a JSON step, with or without one.
   */
  ctl?: { usage: string; arity: number; content(args: string[]): unknown };
  /** The step's title in narration and reports. */
  title(step: AreaSteps[K]): string;
  /** How narration tells what an inspection read (`compact` shortens a value to one line). */
  narrate?(contents: any, compact: (value: unknown) => string): string;
  /** Does the step: appends its events, or answers what it read; a `WorldUsageError` when the world has not what it names. */
  apply(world: StepWorld, step: AreaSteps[K]): Inspected | void;
}

/** A step declaration, typed by its action key. */
export function declareStep<K extends AreaStepAction>(declaration: StepDeclaration<K>): StepDeclaration<K> {
  return declaration;
}
