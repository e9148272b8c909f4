// Restart a crashed cluster: it comes back, unsealed, with its storage and its role.
import fc from 'fast-check';
import { indices, OperatorCommand, pick, type CommandFamily } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class Restart extends OperatorCommand {
  readonly family = 'restart';
  /** The `index`-th crashed cluster. */
  constructor(readonly index: number) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => !m.up[c]);
  }

  check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }

  predict(): 'accept' {
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    return `restart ${this.target(m)}`;
  }

  protected act(m: Model, op: Operator): void {
    const c = this.target(m)!;
    op.restart(c, this.describe(m));
    m.up[c] = true;
  }
}

export const restart: CommandFamily = {
  family: 'restart',
  weight: 2,
  arbitrary: () => fc.nat(MAX_CLUSTERS - 1).map((i) => new Restart(i)),
  enumerate: (k) => indices(k).map((i) => new Restart(i)),
};
