// Set a paths filter on a performance primary for one of its secondaries: `deny` keeps the `apps/`
// mount from it, `allow` lets only `apps/` through. The filter is kept per secondary id, the id the
// primary issued the secondary's token under.
import fc from 'fast-check';
import { expectOutcome, indices, OperatorCommand, orderedPairsOf, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export type FilterMode = 'allow' | 'deny';
/** The mount the filters name: one of the replicated mounts of the property topology. */
export const FILTERED_MOUNT = 'apps/';

/** The `index`-th (performance primary, cluster it issued a token for) pair, with the id of that token. */
export function filterTarget(m: Readonly<Model>, index: number): { primary: string; secondary: string; id: string } | undefined {
  if (!m.capabilities.pathsFilter || !m.capabilities.kinds.includes('performance')) return undefined;
  const pair = pick(orderedPairsOf(m), index, ([p, s]) => m.roles.performance[p].role === 'primary' && m.lastIdFor.performance[p][s] !== undefined);
  return pair && { primary: pair[0], secondary: pair[1], id: m.lastIdFor.performance[pair[0]][pair[1]] };
}

export class SetPathsFilter extends OperatorCommand {
  readonly family = 'set-paths-filter';
  constructor(
    readonly index: number,
    readonly mode: FilterMode,
  ) {
    super();
  }

  check(m: Readonly<Model>): boolean {
    return filterTarget(m, this.index) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    const { primary, id } = filterTarget(m, this.index)!;
    if (!m.up[primary]) return 'refuse';
    // A revoked secondary gets no filter until it has a new token; otherwise the service decides.
    return m.issued.performance[primary][id] === 'revoked' ? 'refuse' : 'either';
  }

  describe(m: Readonly<Model>): string {
    const { primary, secondary } = filterTarget(m, this.index)!;
    const verb = this.mode === 'deny' ? `keep ${FILTERED_MOUNT} from` : `let only ${FILTERED_MOUNT} reach`;
    return `on ${primary}, ${verb} ${secondary} with a paths filter`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const { primary, id } = filterTarget(m, this.index)!;
    const answer = op.request(primary, 'POST', replicationPath('performance', `primary/paths-filter/${id}`), {
      body: { mode: this.mode, paths: [FILTERED_MOUNT] },
      label: `set a ${this.mode} paths filter on ${primary} for the secondary "${id}"`,
    });
    expectOutcome(answer, prediction, this.toString());
  }
}

export const setPathsFilter: CommandFamily = {
  family: 'set-paths-filter',
  weight: 1,
  arbitrary: (caps) =>
    caps.pathsFilter
      ? fc.tuple(fc.nat(MAX_CLUSTERS * (MAX_CLUSTERS - 1) - 1), fc.constantFrom<FilterMode>('deny', 'allow')).map(([i, mode]) => new SetPathsFilter(i, mode))
      : null,
  enumerate: (k, caps) => (caps.pathsFilter ? indices(k * (k - 1)).flatMap((i) => (['deny', 'allow'] as const).map((mode) => new SetPathsFilter(i, mode))) : []),
};
