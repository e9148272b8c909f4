// Revoke a secondary on its primary, by the id its token was issued under: it disconnects and
// receives nothing until it is given a new token.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, OperatorCommand, orderedPairsOf, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { KIND_WORD, MAX_CLUSTERS, revokeCredentials, type Kind, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class RevokeSecondary extends OperatorCommand {
  readonly family = 'revoke-secondary';
  /** The `index`-th (issuer, cluster) pair the issuer issued a token for. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private pair(m: Readonly<Model>): [string, string] | undefined {
    return pick(orderedPairsOf(m), this.index, ([issuer, s]) => m.lastIdFor[this.kind][issuer][s] !== undefined);
  }

  private idOf(m: Readonly<Model>): string {
    const [issuer, s] = this.pair(m)!;
    return m.lastIdFor[this.kind][issuer][s];
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.pair(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    const [issuer] = this.pair(m)!;
    if (!m.up[issuer] || m.roles[this.kind][issuer].role !== 'primary') return 'refuse';
    return m.issued[this.kind][issuer][this.idOf(m)] === 'active' ? 'accept' : 'refuse';
  }

  describe(m: Readonly<Model>): string {
    const [issuer, s] = this.pair(m)!;
    return `revoke ${s}'s ${KIND_WORD[this.kind]} secondary token on ${issuer}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const [issuer] = this.pair(m)!;
    const id = this.idOf(m);
    const answer = op.request(issuer, 'POST', replicationPath(this.kind, 'primary/revoke-secondary'), { body: { id }, label: `revoke the secondary "${id}" on ${issuer}` });
    expectOutcome(answer, prediction, this.toString());
    if (answer.ok) revokeCredentials(m, this.kind, issuer, id);
  }
}

export const revokeSecondary: CommandFamily = {
  family: 'revoke-secondary',
  weight: 1,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS * (MAX_CLUSTERS - 1) - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new RevokeSecondary(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k * (k - 1)).map((i) => new RevokeSecondary(i, kind))),
};
