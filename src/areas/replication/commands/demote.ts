// Demote a primary: it becomes a secondary that follows nobody, keeps its cluster id, and can rejoin
// its set later with a token (the first step of a planned failover).
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, kindTag, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { learnRole, MAX_CLUSTERS, setRole, type Kind, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class Demote extends OperatorCommand {
  readonly family = 'demote';
  /** The `index`-th primary of that kind. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => m.roles[this.kind][c].role === 'primary');
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    return m.up[this.target(m)!] ? 'accept' : 'refuse';
  }

  describe(m: Readonly<Model>): string {
    return `demote ${this.target(m)} ${kindTag(this.kind)}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const answer = op.request(c, 'POST', replicationPath(this.kind, 'primary/demote'), { label: `demote ${c} to a secondary` });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    setRole(m, this.kind, c, 'secondary.demoted');
    // A DR secondary serves no performance replication of its own: the world says what became of it.
    if (this.kind === 'dr' && hasKind(m, 'performance')) learnRole(m, op.world.state, 'performance', c);
  }
}

export const demote: CommandFamily = {
  family: 'demote',
  weight: 2,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new Demote(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).map((i) => new Demote(i, kind))),
};
