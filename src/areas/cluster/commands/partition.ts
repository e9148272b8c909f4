// Cut the link between two clusters, both ways (a network partition).
import fc from 'fast-check';
import { linkKey } from '../../../kernel/network.js';
import { indices, OperatorCommand, pairsOf, pick, type CommandFamily } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class Partition extends OperatorCommand {
  readonly family = 'partition';
  /** The `index`-th link still up. */
  constructor(readonly index: number) {
    super();
  }

  private link(m: Readonly<Model>): [string, string] | undefined {
    return pick(pairsOf(m), this.index, ([a, b]) => m.cut[linkKey(a, b)] !== true);
  }

  check(m: Readonly<Model>): boolean {
    return this.link(m) !== undefined;
  }

  predict(): 'accept' {
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    const [a, b] = this.link(m)!;
    return `partition ${a} from ${b}`;
  }

  protected act(m: Model, op: Operator): void {
    const [a, b] = this.link(m)!;
    op.partition(a, b, this.describe(m));
    m.cut[linkKey(a, b)] = true;
  }
}

export const partition: CommandFamily = {
  family: 'partition',
  weight: 1,
  arbitrary: () => fc.nat((MAX_CLUSTERS * (MAX_CLUSTERS - 1)) / 2 - 1).map((i) => new Partition(i)),
  enumerate: (k) => indices((k * (k - 1)) / 2).map((i) => new Partition(i)),
};
