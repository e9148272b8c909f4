// Let time pass: links connect and sync, WALs stream, activation tokens age (31 minutes outlives
// their 30-minute ttl).
import fc from 'fast-check';
import { formatMs } from '../../../kernel/clock.js';
import { OperatorCommand, type CommandFamily } from '../../property/command.js';
import type { Model } from '../../property/model.js';
import type { OperatorPort as Operator } from '../../property/answer.js';

/** The waits fast-check draws from (a second is the common one: far longer than a link's latency). */
export const WAITS_MS = [1000, 1000, 1000, 10_000, 31 * 60_000];
/** The explorer's waits: long enough for everything due to happen, and long enough for tokens to expire. */
export const EXPLORER_WAITS_MS = [1000, 31 * 60_000];

export class Wait extends OperatorCommand {
  readonly family = 'wait';
  constructor(readonly ms: number) {
    super();
  }

  check(): boolean {
    return true;
  }

  predict(): 'accept' {
    return 'accept';
  }

  describe(): string {
    return `wait ${formatMs(this.ms)}`;
  }

  protected act(m: Model, op: Operator): void {
    op.wait(this.ms, this.describe());
    m.now += this.ms;
  }
}

export const wait: CommandFamily = {
  family: 'wait',
  weight: 3,
  arbitrary: () => fc.constantFrom(...WAITS_MS).map((ms) => new Wait(ms)),
  enumerate: () => EXPLORER_WAITS_MS.map((ms) => new Wait(ms)),
};
