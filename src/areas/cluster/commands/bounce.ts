// Bounce a running cluster: crash it and restart it after a gap shorter than, about, and longer than
// one link latency — the moments a WAL or a sync is still on its way, which a crash and a restart
// whole steps apart never reach (a write acknowledged just before the crash; a restart during a
// merkle sync; a primary restarted under its streaming secondaries).
import fc from 'fast-check';
import type { CommandFamily } from '../../property/command.js';
import { Crash } from './crash.js';
import { MAX_CLUSTERS, type Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

/** The gaps between the crash and the restart, in ms: the same instant, within, and past a 20 ms link. */
export const BOUNCE_GAPS_MS = [0, 10, 30] as const;

/** A crash of the `index`-th running cluster (as `Crash` picks it), then its restart `gapMs` later. */
export class Bounce extends Crash {
  override readonly family = 'bounce';
  constructor(
    index: number,
    readonly gapMs: number,
  ) {
    super(index);
  }

  override describe(m: Readonly<Model>): string {
    return `bounce ${this.target(m)} (down ${this.gapMs} ms)`;
  }

  protected override act(m: Model, op: Operator): void {
    const c = this.target(m)!;
    op.crash(c, `crash ${c}`);
    if (this.gapMs > 0) op.wait(this.gapMs, `wait ${this.gapMs} ms`);
    m.now += this.gapMs;
    op.restart(c, `restart ${c}`);
  }
}

export const bounce: CommandFamily = {
  family: 'bounce',
  weight: 1,
  arbitrary: () => fc.tuple(fc.nat(MAX_CLUSTERS - 1), fc.constantFrom(...BOUNCE_GAPS_MS)).map(([i, gap]) => new Bounce(i, gap)),
  // The explorer walks the product of roles: a bounce moves no role (a crash and a restart do the
  // same for roles), so it adds no state there, only branches.
  enumerate: () => [],
};
