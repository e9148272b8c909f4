// Re-point a secondary at a primary without a wipe: with a new activation token, with the
// addresses of its set's primary (refused on a newly demoted former primary, rule 3, and on one
// that forgot its primary), or with an
// empty token, which makes it forget its primary. For DR, with a fresh DR operation token.
import fc from 'fast-check';
import { expectOutcome, hasKind, indices, kindTag, OperatorCommand, pick, replicationPath, type CommandFamily, type Prediction } from '../../property/command.js';
import { heldTokenFor, knowsCredentials, MAX_CLUSTERS, presentCredentials, modeIn, primariesOfSet, reachableIn, redeemOutcome, setRole, type Kind, type Model } from '../../property/model.js';
import { obtainDrOperationToken } from '../../operation-token/commands/operation-token.js';
import type { Body, OperatorPort as Operator } from '../../property/answer.js';

export type UpdateVia = 'token' | 'addresses' | 'forget';
const VIAS: UpdateVia[] = ['token', 'addresses', 'forget'];

export class UpdatePrimary extends OperatorCommand {
  readonly family = 'update-primary';
  /** The `index`-th secondary of that kind that the update can be made for (a token held, an address known). */
  constructor(
    readonly index: number,
    readonly kind: Kind,
    readonly via: UpdateVia,
  ) {
    super();
  }

  /** The primary whose address the operator gives `c`: one of its set's primaries, else the one it followed. */
  private addressTarget(m: Readonly<Model>, c: string): string | undefined {
    const r = m.roles[this.kind][c];
    return primariesOfSet(m, this.kind, r.set).find((p) => p !== c) ?? r.follows ?? undefined;
  }

  private target(m: Readonly<Model>): string | undefined {
    return pick(m.clusters, this.index, (c) => {
      if (modeIn(m, this.kind, c) !== 'secondary') return false;
      if (this.via === 'token') return heldTokenFor(m, this.kind, c) !== undefined;
      if (this.via === 'addresses') return this.addressTarget(m, c) !== undefined;
      return true;
    });
  }

  check(m: Readonly<Model>): boolean {
    return hasKind(m, this.kind) && this.target(m) !== undefined;
  }

  predict(m: Readonly<Model>): Prediction {
    const c = this.target(m)!;
    if (!m.up[c]) return 'refuse';
    if (this.via === 'forget') return 'accept';
    if (this.via === 'token') {
      // No wipe, so no joining another set: a token from a primary of another set is refused.
      const t = heldTokenFor(m, this.kind, c)!;
      const own = m.roles[this.kind][c].set;
      if (own !== -1 && m.roles[this.kind][t.issuer].set !== own) return 'refuse';
      return redeemOutcome(m, t, c);
    }
    // Addresses reuse the credentials of the primary it follows: refused on a newly demoted former
    // primary (rule 3) and on one told to forget its primary.
    const role = m.roles[this.kind][c].role;
    if (role === 'secondary.demoted' || role === 'secondary.unassigned') return 'refuse';
    // The addresses are pinged: the target must answer, as a primary of the same set.
    // The ping carries c's credentials: the target must also know them, not revoked.
    const target = this.addressTarget(m, c)!;
    const t = m.roles[this.kind][target];
    if (!reachableIn(m, c, target) || t.role !== 'primary' || t.set !== m.roles[this.kind][c].set) return 'refuse';
    return knowsCredentials(m, this.kind, target, c);
  }

  describe(m: Readonly<Model>): string {
    const c = this.target(m)!;
    if (this.via === 'forget') return `make ${c} ${kindTag(this.kind)} forget its primary`;
    if (this.via === 'token') {
      const t = heldTokenFor(m, this.kind, c);
      return `re-point ${c} ${kindTag(this.kind)} at ${t?.issuer ?? 'a primary'} with a new token`;
    }
    return `re-point ${c} ${kindTag(this.kind)} at ${this.addressTarget(m, c)}'s address`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = this.target(m)!;
    const body: Body = {};
    let label: string;
    let target: string | null = null;
    const held = this.via === 'token' ? heldTokenFor(m, this.kind, c)! : undefined;
    if (this.via === 'token') {
      body.token = held!.token;
      target = held!.issuer;
      label = `${c} takes ${target} as its primary with update-primary and the new token (no wipe)`;
    } else if (this.via === 'addresses') {
      target = this.addressTarget(m, c)!;
      body.update_primary_addrs = [op.clusterAddr(target)];
      label = `${c} takes ${target} as its primary with update-primary and its address`;
    } else {
      body.token = '';
      label = `${c} forgets its primary (update-primary with an empty token)`;
    }
    if (this.kind === 'dr') {
      const opToken = obtainDrOperationToken(op, c, m.up[c] ? 'accept' : 'refuse');
      if (!opToken) return;
      body.dr_operation_token = opToken;
    }
    const answer = op.request(c, 'POST', replicationPath(this.kind, 'secondary/update-primary'), { token: this.kind === 'dr' ? 'none' : 'root', body, label });
    expectOutcome(answer, prediction, this.toString());
    if (!answer.ok) return;
    const r = m.roles[this.kind][c];
    if (this.via !== 'forget') m.followed[c] = true;
    if (this.via === 'forget') {
      setRole(m, this.kind, c, 'secondary.unassigned', r.set);
      m.credentials[this.kind][c] = null;
    }
    else if (this.via === 'addresses') setRole(m, this.kind, c, 'secondary.following', r.set, target);
    else {
      presentCredentials(m, this.kind, c, held!);
      setRole(m, this.kind, c, 'secondary.following', m.roles[this.kind][target!].set, target);
    }
  }
}

export const updatePrimary: CommandFamily = {
  family: 'update-primary',
  // Re-pointing (by token, by address, forgetting) is where failover runbooks go wrong: drawn often,
  // addresses as often as tokens (demote, forget, promote, re-point chains are where its bugs hide).
  weight: 4,
  arbitrary: (caps) =>
    fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...caps.kinds), fc.constantFrom<UpdateVia>('token', 'addresses', 'addresses', 'forget')).map(
      ([i, kind, via]) => new UpdatePrimary(i, kind, via),
    ),
  enumerate: (k, caps) => caps.kinds.flatMap((kind) => indices(k).flatMap((i) => VIAS.map((via) => new UpdatePrimary(i, kind, via)))),
};
