// Promote a secondary to a primary of its set: for DR with a freshly generated DR operation token,
// sometimes with `force`. Safe runbooks never force and promote only once no cluster of the set is
// a primary any more (demote first); a crashed primary still counts, as it comes back a primary.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, kindTag, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { learnIssued, learnRole, MAX_CLUSTERS, modeIn, primariesOfSet, setRole, type Kind, type Model } from '../../property/model.js';
import { obtainDrOperationToken } from '../../operation-token/commands/operation-token.js';
import type { Body, OperatorPort as Operator } from '../../property/answer.js';

export class Promote extends OperatorCommand {
  readonly family = 'promote';
  /** The `index`-th secondary of that kind (in safe runbooks, of those whose set has no primary left). */
  constructor(
    readonly index: number,
    readonly kind: Kind,
    readonly force: boolean,
  ) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => {
      if (modeIn(m, this.kind, c) !== 'secondary') return false;
      return !m.safe || primariesOfSet(m, this.kind, m.roles[this.kind][c].set).length === 0;
    });
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && !(m.safe && this.force) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    if (!m.up[this.target(m)!]) return 'refuse';
    // Unforced, the safety checks decide (has the initial sync completed?): the model cannot tell.
    return this.force ? 'accept' : 'either';
  }

  describe(m: Readonly<Model>): string {
    const how = this.kind === 'dr' ? ' with an operation token' : '';
    return `promote ${this.target(m)} ${kindTag(this.kind)}${how}${this.force ? ', forced' : ''}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const body: Body = this.force ? { force: true } : {};
    if (this.kind === 'dr') {
      const opToken = obtainDrOperationToken(op, c, m.up[c] ? 'accept' : 'refuse');
      if (!opToken) return;
      body.dr_operation_token = opToken;
    }
    const answer = op.request(c, 'POST', replicationPath(this.kind, 'secondary/promote'), {
      token: this.kind === 'dr' ? 'none' : 'root',
      body,
      label: `promote ${c} to ${this.kind === 'dr' ? 'DR' : 'performance'} primary${this.force ? ' with force' : ''}`,
    });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    setRole(m, this.kind, c, 'primary');
    m.credentials[this.kind][c] = null;
    // It takes up the known secondaries it mirrored as a secondary (or kept as a demoted primary).
    learnIssued(m, op.world.state, this.kind, c);
    // A promoted DR secondary takes up the performance replication it mirrored: the world says which.
    if (this.kind === 'dr' && hasKind(m, 'performance')) learnRole(m, op.world.state, 'performance', c);
  }
}

export const promote: CommandFamily = {
  family: 'promote',
  weight: 3,
  arbitrary: (caps) =>
    fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds), fc.constantFrom(false, false, true)).map(([i, kind, force]) => new Promote(i, kind, force)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).flatMap((i) => [false, true].map((force) => new Promote(i, kind, force)))),
};
