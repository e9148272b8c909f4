// Enable a cluster as a secondary with the newest activation token the operator holds for it. The
// service wipes the cluster's storage at once and it starts to follow the token's issuer.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { forgetIssued, heldTokenFor, isDrSecondaryIn, KIND_WORD, MAX_CLUSTERS, presentCredentials, redeemOutcome, setRole, type Kind, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class EnableSecondary extends OperatorCommand {
  readonly family = 'enable-secondary';
  /** The `index`-th cluster, of those not replicating that kind, that the operator holds a token for. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => m.roles[this.kind][c].role === 'disabled' && heldTokenFor(m, this.kind, c) !== undefined);
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    const c = this.target(m)!;
    if (!m.up[c]) return 'refuse';
    // A DR secondary runs no other replication beside it; a DR secondary answers no performance call.
    if (this.kind === 'dr' && m.roles.performance[c].role !== 'disabled') return 'refuse';
    if (this.kind === 'performance' && isDrSecondaryIn(m, c)) return 'refuse';
    return redeemOutcome(m, heldTokenFor(m, this.kind, c)!, c);
  }

  describe(m: Readonly<Model>): string {
    const c = this.target(m)!;
    return `enable ${c} as a ${KIND_WORD[this.kind]} secondary with ${heldTokenFor(m, this.kind, c)!.issuer}'s token`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const t = heldTokenFor(m, this.kind, c)!;
    const answer = op.request(c, 'POST', replicationPath(this.kind, 'secondary/enable'), {
      body: { token: t.token },
      label: `enable ${c} as ${t.issuer}'s ${KIND_WORD[this.kind]} secondary (wipes its storage)`,
    });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    presentCredentials(m, this.kind, c, t);
    setRole(m, this.kind, c, 'secondary.following', m.roles[this.kind][t.issuer].set, t.issuer);
    m.followed[c] = true;
    forgetIssued(m, this.kind, c);
    // The wipe takes the cluster's (disabled) performance configuration with it: its tokens are gone.
    if (this.kind === 'dr') forgetIssued(m, 'performance', c);
  }
}

export const enableSecondary: CommandFamily = {
  family: 'enable-secondary',
  weight: 4,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new EnableSecondary(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).map((i) => new EnableSecondary(i, kind))),
};
