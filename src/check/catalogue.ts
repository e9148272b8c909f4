// The catalogue of invariants and hazards (invariants.md), one monitor per id, and the watch that
// runs them over a world after every step.
import type { ApiResponse } from '../kernel/http/http.js';
import type { BusMessage } from '../kernel/bus.js';
import { applyEvent } from '../kernel/engine.js';
import type { SimEvent } from '../areas/core/events.js';
import type { SimState } from '../areas/core/state.js';
import { reducers, type RequestResult, type SendOptions, type World } from '../world.js';
import { AREAS } from '../areas.js';
import { gather } from '../kernel/area.js';
import { HAZARD_IDS, INVARIANT_IDS } from '../areas/core/vocabulary.js';
import type { Finding, HazardId, InvariantId, Monitor, MonitorFactory, Observation, ObservedRequest, ResponseObservation } from '../areas/monitoring/types.js';

const ORDER: readonly string[] = [...INVARIANT_IDS, ...HAZARD_IDS];

/** Every monitor replsim has (each area's, src/areas.ts), invariants first, in the order of invariants.md. */
export const catalogue: MonitorFactory[] = gather(AREAS, 'monitors')
  .map((f) => ({ f, at: ORDER.indexOf(f().id) }))
  .sort((a, b) => a.at - b.at)
  .map(({ f }) => f);

/** How the world applies one event: what monitors fold with between a step's events (Observation.fold). */
export const foldEvent = (state: SimState, event: SimEvent): SimState => applyEvent(state, event, reducers);

/** One entry of the catalogue, for the README and reference docs. */
export interface CatalogueEntry {
  id: InvariantId | HazardId;
  kind: 'invariant' | 'hazard';
  description: string;
}

/** The catalogue as data: id, kind and description of every monitor, in catalogue order. */
export function describeCatalogue(factories: MonitorFactory[] = catalogue): CatalogueEntry[] {
  return factories.map((f) => {
    const { id, kind, description } = f();
    return { id, kind, description };
  });
}

/**
 * What the monitors are shown of one step. The bus messages are gathered when a monitor first reads
 * them (only a promotion's lost writes do), during the step's observation: most steps need none.
 */
class StepObservation implements Observation {
  readonly state: SimState;
  readonly fold = foldEvent;
  #messages: readonly BusMessage[] | undefined;
  constructor(
    private readonly world: World,
    private readonly settled: ReadonlySet<BusMessage>,
    readonly events: readonly SimEvent[],
    readonly before: SimState,
    readonly states: readonly SimState[] | undefined,
    readonly responses: readonly ResponseObservation[],
  ) {
    this.state = world.state;
  }
  get messages(): readonly BusMessage[] {
    return (this.#messages ??= [...this.world.inFlight, ...this.settled].sort((a, b) => a.sentBy - b.sentBy));
  }
}

/**
 * Runs fresh monitors over a world: call `afterStep()` after each step to collect new findings.
 * Monitors that judge answers (`dr-secondary-closed`, `otp-never-returned`, and the response side
 * of `operation-token-gate` and `one-generation-attempt`) also need every request's response:
 * report each with `observeResponse(cluster, request, response, before)` before the step's
 * `afterStep()`, or send requests through `send` / `sendAsync`, which do it.
 */
export class Watch {
  readonly monitors: Monitor[];
  private before: SimState;
  private seen: number;
  /** The state after each event since the last step, recorded as the world appends them. */
  private states: SimState[] = [];
  private responses: ResponseObservation[] = [];
  /** The messages delivered or dropped since the last step, as the bus reported them. */
  private settled = new Set<BusMessage>();
  readonly findings: Finding[] = [];

  constructor(private readonly world: World, factories: MonitorFactory[] = catalogue) {
    this.monitors = factories.map((f) => f());
    this.before = world.state;
    this.seen = world.log.length;
    // The stream publishes each event once the state has absorbed it: the state then is the one right after it.
    world.events$.subscribe(() => this.states.push(world.state));
    // What the monitors are shown of the bus: the messages in flight, and those that arrived or were
    // lost during the step (the world keeps no history of messages unless it is read: World.messages).
    world.bus$.subscribe((r) => {
      if (r.phase !== 'sent') this.settled.add(r.message);
    });
  }

  /**
   * Reports a request the world answered during the current step, with the world's state just
   * before it was sent. Call it right after the request (before any other request or wait).
   */
  observeResponse(cluster: string, request: ObservedRequest, response: ApiResponse, before: SimState): void {
    const { method, path, body, namespace } = request;
    this.responses.push({ cluster, request: { method, path, body, namespace }, response, before, after: this.world.state, eventIndex: this.world.log.length - this.seen });
  }

  /** `world.send`, reported to the monitors. */
  send(cluster: string, request: Parameters<World['send']>[1], options?: SendOptions): RequestResult {
    const before = this.world.state;
    const result = this.world.send(cluster, request, options);
    this.observeResponse(cluster, request, result.response, before);
    return result;
  }

  /** `world.sendAsync`, reported to the monitors. */
  async sendAsync(cluster: string, request: Parameters<World['send']>[1], options?: SendOptions): Promise<RequestResult> {
    const before = this.world.state;
    const result = await this.world.sendAsync(cluster, request, options);
    this.observeResponse(cluster, request, result.response, before);
    return result;
  }

  afterStep(): Finding[] {
    const events = this.world.log.slice(this.seen) as SimEvent[];
    // The recorded states line up with the events unless the log grew some other way; monitors then fold again.
    const states = this.states.length === events.length ? this.states : undefined;
    const o = new StepObservation(this.world, this.settled, events, this.before, states, this.responses);
    const found: Finding[] = [];
    for (const m of this.monitors) for (const f of m.observe(o)) found.push(f);
    this.before = this.world.state;
    this.seen = this.world.log.length;
    this.states = [];
    this.responses = [];
    this.settled = new Set();
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
