// The catalogue of invariants and hazards (invariants.md), one monitor per id, and the watch that
// runs them over a world after every step.
import type { SimEvent } from '../cluster/events.js';
import type { SimState } from '../cluster/state.js';
import type { World } from '../simulation.js';
import { twoPrimaries } from './two-primaries.js';
import type { Finding, Monitor, MonitorFactory } from './types.js';

/** Every monitor replsim has, by id. */
export const catalogue: MonitorFactory[] = [twoPrimaries];

/** Runs fresh monitors over a world: call `afterStep()` after each step to collect new findings. */
export class Watch {
  readonly monitors: Monitor[];
  private before: SimState;
  private seen: number;
  readonly findings: Finding[] = [];

  constructor(private readonly world: World, factories: MonitorFactory[] = catalogue) {
    this.monitors = factories.map((f) => f());
    this.before = world.state;
    this.seen = world.log.length;
  }

  afterStep(): Finding[] {
    const events = this.world.log.slice(this.seen) as SimEvent[];
    const o = { state: this.world.state, events, before: this.before };
    const found = this.monitors.flatMap((m) => m.observe(o));
    this.before = this.world.state;
    this.seen = this.world.log.length;
    this.findings.push(...found);
    return found;
  }

  /** The ids of the invariants checked (for the verdict line). */
  get invariantIds(): string[] {
    return this.monitors.filter((m) => m.kind === 'invariant').map((m) => m.id);
  }
  get hazardIds(): string[] {
    return this.monitors.filter((m) => m.kind === 'hazard').map((m) => m.id);
  }
}
