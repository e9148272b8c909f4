// Restore a cut link, or every link at once.
import fc from 'fast-check';
import { linkKey } from '../../../kernel/network.js';
import { indices, OperatorCommand, pairsOf, pick, type CommandFamily } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class Heal extends OperatorCommand {
  readonly family = 'heal';
  /** The `index`-th cut link; `null`: every link. */
  constructor(readonly index: number | null) {
    super();
  }

  private link(m: Readonly<Model>): [string, string] | 'all' | undefined {
    if (this.index === null) return Object.keys(m.cut).length > 0 ? 'all' : undefined;
    return pick(pairsOf(m), this.index, ([a, b]) => m.cut[linkKey(a, b)] === true);
  }

  check(m: Readonly<Model>): boolean {
    return this.link(m) !== undefined;
  }

  predict(): 'accept' {
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    const link = this.link(m)!;
    return link === 'all' ? 'heal every link' : `heal the link between ${link[0]} and ${link[1]}`;
  }

  protected act(m: Model, op: Operator): void {
    const link = this.link(m)!;
    op.heal(link, this.describe(m));
    if (link === 'all') m.cut = {};
    else delete m.cut[linkKey(...link)];
  }
}

export const heal: CommandFamily = {
  family: 'heal',
  weight: 1,
  arbitrary: () => fc.oneof(fc.constant(new Heal(null)), fc.nat((MAX_CLUSTERS * (MAX_CLUSTERS - 1)) / 2 - 1).map((i) => new Heal(i))),
  enumerate: (k) => [new Heal(null), ...indices((k * (k - 1)) / 2).map((i) => new Heal(i))],
};
