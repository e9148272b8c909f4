// Enable a cluster as a primary (DR or performance): the start of every replication set.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { forgetIssued, isDrSecondaryIn, KIND_WORD, MAX_CLUSTERS, setRole, type Kind, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

export class EnablePrimary extends OperatorCommand {
  readonly family = 'enable-primary';
  /** The `index`-th cluster whose replication of that kind is disabled. */
  constructor(
    readonly index: number,
    readonly kind: Kind,
  ) {
    super();
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => m.roles[this.kind][c].role === 'disabled');
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    const c = this.target(m)!;
    if (!m.up[c]) return 'refuse';
    // A DR secondary answers no performance call.
    if (this.kind === 'performance' && isDrSecondaryIn(m, c)) return 'refuse';
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    return `enable ${this.target(m)} as a ${KIND_WORD[this.kind]} primary`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const answer = op.request(c, 'POST', replicationPath(this.kind, 'primary/enable'), { label: `enable ${c} as a ${KIND_WORD[this.kind]} primary` });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    // Every enable starts a new replication set, and the cluster forgets tokens it issued before.
    setRole(m, this.kind, c, 'primary', m.nextSet++);
    forgetIssued(m, this.kind, c);
  }
}

export const enablePrimary: CommandFamily = {
  family: 'enable-primary',
  weight: 1,
  arbitrary: (caps) => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds)).map(([i, kind]) => new EnablePrimary(i, kind)),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).map((i) => new EnablePrimary(i, kind))),
};
