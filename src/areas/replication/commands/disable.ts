// Disable replication on a cluster: on a primary its set is gone (tokens it issued can no longer be
// redeemed); on a secondary it stops following (for DR, with a fresh DR operation token).
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { forgetIssued, KIND_WORD, MAX_CLUSTERS, modeIn, setRole, type Kind, type Model } from '../../property/model.js';
import { obtainDrOperationToken } from '../../operation-token/commands/operation-token.js';
import type { Body, OperatorPort as Operator } from '../../property/answer.js';

export class Disable extends OperatorCommand {
  readonly family = 'disable';
  /** The `index`-th cluster replicating that kind. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => m.roles[this.kind][c].role !== 'disabled');
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    return m.up[this.target(m)!] ? 'accept' : 'refuse';
  }

  describe(m: Readonly<Model>): string {
    const c = this.target(m)!;
    return `disable ${KIND_WORD[this.kind]} replication on the ${modeIn(m, this.kind, c)} ${c}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const side = modeIn(m, this.kind, c) === 'primary' ? 'primary' : 'secondary';
    const withOperationToken = side === 'secondary' && this.kind === 'dr';
    const body: Body = {};
    if (withOperationToken) {
      const opToken = obtainDrOperationToken(op, c, prediction);
      if (!opToken) return;
      body.dr_operation_token = opToken;
    }
    const answer = op.request(c, 'POST', replicationPath(this.kind, `${side}/disable`), {
      token: withOperationToken ? 'none' : 'root',
      body: withOperationToken ? body : undefined,
      label: `disable ${KIND_WORD[this.kind]} replication on the ${side} ${c}`,
    });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    setRole(m, this.kind, c, 'disabled');
    // Either side: a demoted former primary that is disabled forgets the tokens it issued too.
    forgetIssued(m, this.kind, c);
    m.credentials[this.kind][c] = null;
  }
}

export const disable: CommandFamily = {
  family: 'disable',
  weight: 1,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new Disable(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).map((i) => new Disable(i, kind))),
};
