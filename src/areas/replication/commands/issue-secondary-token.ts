// Issue a secondary activation token on a primary, for the cluster the operator means to activate
// with it. The token comes wrapped; the operator keeps `wrap_info.token`.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, OperatorCommand, orderedPairsOf, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { KIND_WORD, MAX_CLUSTERS, type Kind, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class IssueSecondaryToken extends OperatorCommand {
  readonly family = 'issue-secondary-token';
  /** The `index`-th (primary, cluster not a primary of that kind) pair: a cluster to activate or re-point. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private pair(m: Readonly<Model>): [string, string] | undefined {
    return pick(orderedPairsOf(m), this.index, ([issuer, s]) => m.roles[this.kind][issuer].role === 'primary' && m.roles[this.kind][s].role !== 'primary');
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.pair(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    return m.up[this.pair(m)![0]] ? 'accept' : 'refuse';
  }

  describe(m: Readonly<Model>): string {
    const [issuer, secondary] = this.pair(m)!;
    return `issue a ${KIND_WORD[this.kind]} secondary token on ${issuer} for ${secondary}`;
  }

  /** The secondary id: the cluster's name, or a numbered one while that id is still active on the issuer. */
  private idFor(m: Readonly<Model>, issuer: string, secondary: string): string {
    const issued = m.issued[this.kind][issuer];
    for (let n = 1; ; n++) {
      const id = n === 1 ? secondary : `${secondary}-${n}`;
      if (issued[id] !== 'active') return id;
    }
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const [issuer, secondary] = this.pair(m)!;
    const id = this.idFor(m, issuer, secondary);
    const answer = op.request(issuer, 'POST', replicationPath(this.kind, 'primary/secondary-token'), {
      body: { id },
      label: `issue a ${KIND_WORD[this.kind]} secondary token on ${issuer} for ${secondary} (id ${id})`,
      save: { [`${secondary}Token`]: 'wrap_info.token' },
    });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    // A new token for an id replaces the one issued before under it.
    for (const t of m.tokens) if (t.kind === this.kind && t.issuer === issuer && t.id === id) t.superseded = true;
    m.issued[this.kind][issuer][id] = 'active';
    m.lastIdFor[this.kind][issuer][secondary] = id;
    m.tokens.push({
      kind: this.kind,
      issuer,
      id,
      for: secondary,
      token: answer.saved[`${secondary}Token`],
      issuedAt: m.now,
      epoch: m.epoch[this.kind][issuer],
      used: false,
      superseded: false,
      revoked: false,
    });
  }
}

export const issueSecondaryToken: CommandFamily = {
  family: 'issue-secondary-token',
  weight: 4,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS * (MAX_CLUSTERS - 1) - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new IssueSecondaryToken(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k * (k - 1)).map((i) => new IssueSecondaryToken(i, kind))),
};
