// Delete the paths filter a performance primary keeps for one of its secondaries: every replicated
// mount reaches it again.
import fc from 'fast-check';
import { expectOutcome, indices, OperatorCommand, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';
import { filterTarget } from './set-paths-filter.js';

export class DeletePathsFilter extends OperatorCommand {
  readonly family = 'delete-paths-filter';
  constructor(readonly index: number) {
    super();
  }

  check(m: Readonly<Model>): boolean {
    return filterTarget(m, this.index) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    return m.up[filterTarget(m, this.index)!.primary] ? 'either' : 'refuse';
  }

  describe(m: Readonly<Model>): string {
    const { primary, secondary } = filterTarget(m, this.index)!;
    return `delete ${secondary}'s paths filter on ${primary}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const { primary, id } = filterTarget(m, this.index)!;
    const answer = op.request(primary, 'DELETE', replicationPath('performance', `primary/paths-filter/${id}`), { label: `delete the paths filter on ${primary} for the secondary "${id}"` });
    expectOutcome(answer, prediction, this.toString());
  }
}

export const deletePathsFilter: CommandFamily = {
  family: 'delete-paths-filter',
  weight: 1,
  arbitrary: (caps) => (caps.pathsFilter ? fc.nat(MAX_CLUSTERS * (MAX_CLUSTERS - 1) - 1).map((i) => new DeletePathsFilter(i)) : null),
  enumerate: (k, caps) => (caps.pathsFilter ? indices(k * (k - 1)).map((i) => new DeletePathsFilter(i)) : []),
};
