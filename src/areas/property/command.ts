// What every operator-level command shares: parameters are indices into the clusters (or pairs of
// clusters) the command makes sense for in the model's state, so that one generated sequence fits
// any topology and few generated commands are skipped; `check` only reads the
// model, `predict` says what the service must answer where the model knows, and `run` acts through
// the operator, asserts the prediction, checks the model against the world and runs the catalogue.
import type fc from 'fast-check';
import { assertModelMatches, KIND_WORD, ModelMismatch, type Capabilities, type Kind, type Model } from './model.js';
import type { OperatorPort as Operator } from './answer.js';
import { type Prediction } from './outcome.js';
import { memoOnObject } from '../../kernel/memo.js';
export { expectOutcome, replicationPath, type Prediction } from './outcome.js';


export abstract class OperatorCommand implements fc.Command<Model, Operator> {
  /** The family this command belongs to (`promote`, `wait`, ...). */
  abstract readonly family: string;
  private words = '';

  /** Whether the command makes sense now, from the model alone. */
  abstract check(m: Readonly<Model>): boolean;
  /** What the service must answer, from the model alone (for the last request of the command). */
  abstract predict(m: Readonly<Model>): Prediction;
  /** The command in an operator's words, with the model's cluster names. */
  abstract describe(m: Readonly<Model>): string;
  /** Acts on the world through the operator and updates the model from what the world answered. */
  protected abstract act(m: Model, op: Operator, prediction: Prediction): void;

  run(m: Model, op: Operator): void {
    this.words = this.describe(m);
    const prediction = this.predict(m);
    op.beginCommand(this.words);
    this.act(m, op, prediction);
    assertModelMatches(m, op.world.state);
    op.endCommand();
  }

  toString(): string {
    return this.words || this.family;
  }
}

/** The cluster at a generated index, in a topology of any size. */
export function clusterAt(m: Readonly<Model>, index: number): string {
  return m.clusters[index % m.clusters.length];
}

/**
 * The index-th (round the list) of the candidates that qualify, or undefined when none does.
 * Commands choose among the clusters a command makes sense for, so that few generated commands
 * are skipped, whatever the topology's state.
 */
export function pick<T>(candidates: readonly T[], index: number, qualifies: (c: T) => boolean): T | undefined {
  let count = 0;
  for (const c of candidates) if (qualifies(c)) count++;
  if (count === 0) return undefined;
  let wanted = index % count;
  for (const c of candidates) if (qualifies(c) && wanted-- === 0) return c;
  return undefined;
}

// The pairs of a topology, built once per topology (models of one run share their cluster list).
const pairs = memoOnObject((clusters: readonly string[]) => {
  const unordered: [string, string][] = [];
  for (let i = 0; i < clusters.length; i++) for (let j = i + 1; j < clusters.length; j++) unordered.push([clusters[i], clusters[j]]);
  const ordered = clusters.flatMap((a) => clusters.filter((b) => b !== a).map((b) => [a, b] as [string, string]));
  return { unordered, ordered };
});

/** Every unordered pair of clusters, as [a, b] with a before b in the topology's order. */
export function pairsOf(m: Readonly<Model>): readonly [string, string][] {
  return pairs(m.clusters).unordered;
}

/** Every ordered pair of distinct clusters. */
export function orderedPairsOf(m: Readonly<Model>): readonly [string, string][] {
  return pairs(m.clusters).ordered;
}

export function hasKind(m: Readonly<Model>, kind: Kind): boolean {
  return m.capabilities.kinds.includes(kind);
}

/** `(DR)` or `(performance)`, for the operator's words. */
export function kindTag(kind: Kind): string {
  return `(${KIND_WORD[kind]})`;
}

/**
 * A family of commands: how fast-check generates them (over cluster indices, resolved modulo the
 * topology's size) and every instance over a topology of `k` clusters (the explorer's finite domain).
 * A family with nothing to drive (its endpoints answer 501) generates nothing.
 */
export interface CommandFamily {
  family: string;
  /** How often fast-check picks it, relative to the others. */
  weight: number;
  arbitrary(caps: Capabilities): fc.Arbitrary<OperatorCommand> | null;
  enumerate(k: number, caps: Capabilities): OperatorCommand[];
}

/** 0..k-1. */
export function indices(k: number): number[] {
  return Array.from({ length: k }, (_, i) => i);
}
