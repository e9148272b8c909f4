// Write a secret, as a client would, to one of the property topology's mounts: `secret/` and
// `apps/` are replicated, `cache/` is local (it reaches DR secondaries only).
import fc from 'fast-check';
import { clusterAt, expectOutcome, indices, OperatorCommand, type CommandFamily, type Prediction } from '../../property/command.js';
import { holdsMount, isDrSecondaryIn, MAX_CLUSTERS, modeIn, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

/** The mounts every cluster of a property topology starts with. */
export const PROPERTY_MOUNTS = ['secret', 'apps', 'cache'] as const;
export type PropertyMount = (typeof PROPERTY_MOUNTS)[number];

export class WriteSecret extends OperatorCommand {
  readonly family = 'write-secret';
  constructor(
    readonly cluster: number,
    readonly mount: PropertyMount,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  predict(m: Readonly<Model>): Prediction {
    const c = clusterAt(m, this.cluster);
    if (!m.up[c] || isDrSecondaryIn(m, c)) return 'refuse';
    // A topology taken over from a scenario holds the scenario's mounts, not the property topology's.
    const held = holdsMount(m, c, `${this.mount}/`);
    if (held === 'no') return modeIn(m, 'performance', c) === 'secondary' ? 'either' : 'refuse';
    if (held === 'unknown') return 'either';
    // Once it followed a primary, a cluster holds the mounts and tokens of whatever it last synced from: the model cannot tell.
    if (m.followed[c] || modeIn(m, 'performance', c) === 'secondary') return 'either';
    return 'accept';
  }

  describe(m: Readonly<Model>): string {
    return `write ${this.mount}/app on ${clusterAt(m, this.cluster)}`;
  }

  protected act(m: Model, op: Operator, prediction: Prediction): void {
    const c = clusterAt(m, this.cluster);
    const value = ++m.writes;
    const answer = op.request(c, 'POST', `${this.mount}/data/app`, { body: { data: { v: value } }, label: `write ${this.mount}/app = ${value} on ${c}` });
    expectOutcome(answer, prediction, this.toString());
  }
}

export const writeSecret: CommandFamily = {
  family: 'write-secret',
  weight: 2,
  arbitrary: () => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...PROPERTY_MOUNTS)).map(([c, mount]) => new WriteSecret(c, mount)),
  // The explorer writes to one mount: which mount is written changes no role and no link.
  enumerate: (k) => indices(k).map((c) => new WriteSecret(c, 'secret')),
};
