// Crash a cluster: it stops answering and streaming; its storage is kept.
import fc from 'fast-check';
import { indices, OperatorCommand, pick, type CommandFamily } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class Crash extends OperatorCommand {
  readonly family: string = 'crash';
  /** The `index`-th running cluster. */
  constructor(readonly index: number) {
    super();
  }

  protected target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => m.up[c]);
  }

  check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }

  predict(): 'accept' {
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    return `crash ${this.target(m)}`;
  }

  protected act(m: Model, op: Operator): void {
    const c = this.target(m)!;
    op.crash(c, this.describe(m));
    m.up[c] = false;
  }
}

export const crash: CommandFamily = {
  family: 'crash',
  weight: 1,
  arbitrary: () => fc.nat(MAX_CLUSTERS - 1).map((i) => new Crash(i)),
  enumerate: (k) => indices(k).map((i) => new Crash(i)),
};
