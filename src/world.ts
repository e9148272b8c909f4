// The composition root: a World is the event store (log + state), the seeded generator, the API
// router and the timed processes, wired together. Everything a user does to a world (a request, a
// wait, a fault) goes through here and ends as events in the log, or as a refusal that changes
// nothing.
import type { Observable } from 'rxjs';
import type { SimEvent } from './areas/core/events.js';
import { genesisEvent, type Topology } from './areas/cluster/genesis.js';
import { nextState, type SimState } from './areas/core/state.js';
import { ClusterTable } from './areas/core/cluster-table.js';
import { isStoreNode, missingStore } from './areas/sync/external-store.js';
import { WorldUsageError, type AreaStep, type Inspected } from './areas/core/steps.js';
import { render, type ApiRequest, type ApiResponse, type Reply } from './kernel/http/http.js';
import { explainRefusal, type RefusalExplanation } from './kernel/refusal.js';
import { DEFAULT_REQUEST_LIMITS, type RequestLimits } from './kernel/http/limits.js';
import { dispatch, type Dispatch } from './kernel/http/router.js';
import { clusterRouting, type RouteTable } from './areas/core/http/routing.js';
import type { Outcome } from './areas/core/http/route.js';
import { hashOf } from './kernel/canonical.js';
import { applyEvent, assemble, EventStore, isEventType, reduce, withRoot } from './kernel/engine.js';
import { DEFAULT_LATENCY_MS, initialNetwork, linksOfPartition, networkReducers } from './kernel/network.js';
import { own } from './kernel/own.js';
import { HistoryFileError, type History } from './kernel/persist.js';
import { SeededRng } from './kernel/prng.js';
import { Bus, networkFate, type BusMessage, type BusRecord, type MessageSource } from './kernel/bus.js';
import { gather, gatherKeyed, gatherMountRoutes, gatherWorldReducers } from './kernel/area.js';
import { AREA_STEPS, AREAS } from './areas.js';
// Where a write lands is performance replication's rule; the routing hands it to every request.
import { landing as replicationLanding } from './areas/replication/forwarding.js';
import { connectionsEndedBy } from './areas/replication/streaming.js';

/** Every reducer of the world: the network's (the kernel's) and every area's; replay and the monitors' fold use the same. */
export const reducers = withRoot(gatherWorldReducers<SimState, SimEvent>(AREAS, networkReducers), nextState);
/** The routes the world serves: every area's `sys/` paths, and the KV engines' routes by mount type. */
export const routes: RouteTable = { sys: gather(AREAS, 'routes'), mounts: gatherMountRoutes(AREAS) as RouteTable['mounts'], landing: replicationLanding };
/** What happens by itself as time passes, in every area. */
/** What each area sends over the bus between the clusters (src/kernel/bus.ts), read from each applied event. */
const messageSources: MessageSource<SimState, SimEvent>[] = gather(AREAS, 'messages');
/** Who receives the messages the bus is in control of, by kind: the receiving area's handler (bus.ts `Receiver`). */
const receivers = gatherKeyed(AREAS, 'receivers');
/** Who looks at the checks the sources schedule, by the key's prefix (bus.ts `Checker`). */
const checkers = gatherKeyed(AREAS, 'checkers');
/** The paced processes' pacers, by the process key's prefix (bus.ts `Pacer`): heartbeats. */
const pacers = gatherKeyed(AREAS, 'pacers');

/** A history's flaw when its event at some line does not fold (replay, or a replayed world's bus built later). */
function cannotApply(event: SimEvent | undefined, err: unknown): string {
  return `the ${JSON.stringify(event?.type)} event cannot be applied: ${(err as Error).message}`;
}

export { WorldUsageError };

export interface WorldOptions {
  seed?: number;
  latencyMs?: number;
  /** The listener's bounds on request bodies (api/limits.ts); the service's defaults otherwise. */
  requestLimits?: Partial<RequestLimits>;
  /** The route table requests go through: the world's own (`routes`) unless a test drives another. */
  routes?: RouteTable;
}

/** Whether an event type has a reducer (own entries of the table only). */
export function isKnownEventType(type: string): boolean {
  return isEventType(reducers, type);
}

/** How `send` and `sendAsync` read a request. */
export interface SendOptions {
  /**
   * Whether `token` may be a token's name as a scenario writes it (`root`, or a token the topology
   * declares; `none` for no token) as well as a token's value: true by default. The HTTP face of
   * `replsim serve` turns it off, since to the service a client's `X-Vault-Token: root` is no token.
   */
  tokenNames?: boolean;
}

/** A request's response with what the router found, for narration and run history. */
export interface RequestResult {
  response: ApiResponse;
  /** The endpoint's summary in the spec's words, when a route matched. */
  summary?: string;
  pattern?: string;
  /** The events the request appended (none when refused or read-only). */
  events: SimEvent[];
  /** When refused: the registered refusal's code and the spec rule it applies (kernel/refusal.ts). */
  refusal?: RefusalExplanation;
}

/** Where a live world's log keeps its generator's position (see the World constructor). */
const GENERATOR_OF_LOG = Symbol('replsim.generatorOfLog');

function limitsOf(options: Pick<WorldOptions, 'requestLimits'>): Readonly<RequestLimits> {
  return options.requestLimits ? Object.freeze({ ...DEFAULT_REQUEST_LIMITS, ...options.requestLimits }) : DEFAULT_REQUEST_LIMITS;
}

function isHistory(log: readonly SimEvent[] | History<SimEvent>): log is History<SimEvent> {
  return !Array.isArray(log);
}

function emptyState(seed: number, latencyMs: number): SimState {
  return { now: 0, seed, network: initialNetwork(latencyMs), clusters: ClusterTable.empty(), operators: {}, stores: {} };
}

/**
 * Where a world's log starts: the state before its first event and its bus then (the messages a fork
 * carried in flight). The history of messages is rebuilt from it (`World.messages`), and a replayed
 * world builds its bus from it when first needed (`World.bus`, `readLog`).
 */
interface Origin {
  state: SimState;
  bus: Bus<SimState, SimEvent>;
}

/** A live bus: it keeps the messages in flight; the history of them is rebuilt when read. */
const liveBus = () => new Bus<SimState, SimEvent>(messageSources, { history: false, pacers });

export class World {
  /** The state the bus last read: each appended event is read with the state before and after it. */
  private seen: SimState;
  /** The bus, once built: a replayed world builds it when first needed (`bus`). */
  private live: Bus<SimState, SimEvent> | null;
  /** The events of the log the bus must read from the origin when it is built (a replayed world's). */
  private readonly unread: number;
  /** States this world held, by the number of its log's events that led to each (`lendStates`). */
  private statesAt: ((events: number) => SimState | undefined) | null = null;

  private constructor(
    private readonly store: EventStore<SimState, SimEvent>,
    private readonly rng: SeededRng,
    private readonly limits: Readonly<RequestLimits>,
    private origin: Origin | null,
    /** The bus; null: rebuilt from the origin and the log as it is now when first needed (a replay). */
    bus: Bus<SimState, SimEvent> | null = liveBus(),
    private readonly table: RouteTable = routes,
    /** The file a replayed log came from, for `file:line:` when its bus is built later. */
    private readonly file = '<history>',
  ) {
    this.seen = store.state;
    this.live = bus;
    this.unread = bus ? 0 : store.log.length;
    store.events$.subscribe((event) => {
      const after = store.state;
      this.bus.observe(this.seen, event, after, store.touched);
      this.seen = after;
    });
    // The log array itself says where this world's generator is, so `World.replay(world.log)`
    // resumes it too; the property is not enumerable and no copy (JSON, spread) carries it.
    Object.defineProperty(store.log, GENERATOR_OF_LOG, { value: () => rng.save() });
  }

  /**
   * The messages in flight and the timed work scheduled. A replayed world reads its log again to
   * build them when first needed (a request, time passing, a fork, `inFlight`): the bus is derived
   * from the log, as the message history is, and checking a history (`replsim replay`: fold, state
   * hash) does not need it (reading the events onto the bus would be half of folding them).
   */
  private get bus(): Bus<SimState, SimEvent> {
    return (this.live ??= this.readLog(this.unread, false));
  }

  /**
   * A bus that read the log's first `upTo` events from the world's origin (keeping the history of
   * its messages or not). An event the bus cannot read is a flaw of the replayed history at its line.
   */
  private readLog(upTo: number, history: boolean): Bus<SimState, SimEvent> {
    const origin = this.origin;
    if (!origin) throw new Error('a world without its origin cannot read its log again');
    const bus = origin.bus.fork();
    if (history) bus.keepHistory([...bus.inFlight, ...bus.pacedInFlightMessages]);
    let state = origin.state;
    const log = this.store.log;
    const lent = this.statesAt;
    let i = 0;
    try {
      for (; i < upTo; i++) {
        // A state this world held after i events is the one the fold reaches: it goes on from it.
        const held = lent?.(i);
        if (held !== undefined) state = held;
        const e = log[i];
        const answer = reduce(state, e, reducers);
        const next = assemble(state, e, answer, reducers);
        bus.observe(state, e, next, answer?.touched);
        state = next;
      }
    } catch (err) {
      // Only the replayed events are the history's; an event this world appended itself is not.
      if (i >= this.unread) throw err;
      throw new HistoryFileError(this.file, i + 1, cannotApply(log[i], err));
    }
    return bus;
  }

  /** A new world: its clusters initialised from the topology with values drawn from the seed. */
  static create(topology: Topology, options: WorldOptions = {}): World {
    const seed = options.seed ?? 1;
    const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
    const names = Object.keys(topology);
    if (names.length === 0) throw new WorldUsageError('a world needs at least one cluster');
    for (const n of names) if (!/^[a-z][a-z0-9-]*$/.test(n)) throw new WorldUsageError(`cluster name "${n}" must match [a-z][a-z0-9-]*`);
    const rng = new SeededRng(seed);
    const empty = emptyState(seed, latencyMs);
    const store = new EventStore<SimState, SimEvent>(empty, reducers);
    store.append(genesisEvent(topology, seed, rng, latencyMs));
    return new World(store, rng, limitsOf(options), { state: empty, bus: liveBus() }, undefined, options.routes);
  }

  /**
   * Rebuilds a world from its log alone: no handler, clock or generator runs. Given a `History`
   * (`world.history()`, or a history.jsonl read with `readHistory`), the closing record is checked
   * (the events must fold to its state hash) and the generator resumes where the original's was,
   * so the replayed world continues exactly as the original would have: run, replay, more steps
   * equals one longer run. A live world's own `log` array resumes its generator too. A copy of
   * the events alone (JSON, spread) rebuilds the state but restarts the generator at the seed: it
   * does not say how far the generator had drawn (a successful read draws a request_id and
   * appends nothing). Every flaw is a HistoryFileError naming the line (event n is line n).
   */
  static replay(log: readonly SimEvent[] | History<SimEvent>, options: Omit<WorldOptions, 'seed' | 'latencyMs'> = {}): World {
    const history: History<SimEvent> = isHistory(log) ? log : { events: log, end: null };
    const { events, end } = history;
    const file = history.file ?? '<history>';
    const fail = (line: number | null, what: string) => new HistoryFileError(file, line, what);
    const first = events[0];
    if (!first || first.type !== 'world-created') throw fail(first ? 1 : null, 'a history must start with a world-created event');
    if (end && end.events !== events.length) throw fail(null, `the closing record counts ${end.events} events, the history has ${events.length}`);
    const empty = emptyState(first.seed, first.latencyMs);
    let state = empty;
    // One loop with the position at hand, so a flaw names its line; the try sits outside the loop.
    // The bus does not read the events now: the world builds it from its log when first needed.
    let i = 0;
    try {
      for (; i < events.length; i++) {
        const e = events[i];
        if (!isEventType(reducers, e.type)) throw fail(i + 1, `unknown event type ${JSON.stringify(e.type)}`);
        if (e.seq !== undefined && e.seq !== i + 1) throw fail(i + 1, `seq ${JSON.stringify(e.seq)} where ${i + 1} was expected`);
        state = applyEvent(state, e, reducers);
      }
    } catch (err) {
      if (err instanceof HistoryFileError) throw err;
      throw fail(i + 1, cannotApply(events[i], err));
    }
    const store = EventStore.fromState<SimState, SimEvent>(state, reducers);
    // The replayed world keeps the log it was built from, so it can be saved again unchanged.
    // One push at a time: `push(...events)` passes every event as an argument and overflows the
    // call stack beyond some 100,000 events (found by the replay benchmark).
    const kept = store.log as SimEvent[];
    for (const e of events) kept.push(e);
    const position = end?.rng ?? (log as { [GENERATOR_OF_LOG]?: () => number[] })[GENERATOR_OF_LOG]?.();
    const world = new World(store, position ? new SeededRng(0, position) : new SeededRng(first.seed), limitsOf(options), { state: empty, bus: liveBus() }, null, options.routes, file);
    if (end && world.stateHash() !== end.stateHash)
      throw fail(events.length + 1, `the events fold to state hash ${world.stateHash()}, the closing line records ${end.stateHash}: the history was changed`);
    return world;
  }

  /**
   * Appends events a history recorded, as a replay applies them, but published one by one as when
   * they were committed: what the watchers of this world (monitors, the bus) are shown of a step
   * taken before a restart. The generator does not move (the events carry what it drew).
   */
  appendRecorded(events: readonly SimEvent[]): void {
    for (const e of events) this.store.append(e);
  }

  /** A world that continues from this one's state and generator, with a log of its own (numbered on from this one's). */
  fork(): World {
    const origin = { state: this.store.state, bus: this.bus.fork() };
    return new World(EventStore.fromState(this.store.state, reducers, this.store.lastSeq), new SeededRng(0, this.rng.save()), this.limits, origin, this.bus.fork(), this.table);
  }

  /**
   * Lends the world states it held, by the number of its log's events that led to each (a run's
   * checkpoints, src/scenario/timeline.ts). Reading the log again (the message history, a replayed
   * world's bus) goes on from each one it reaches instead of its own fold: the fold holds the
   * changes since the last one, not a second copy of the whole state (a long run's keys twice, at
   * the end of the run, when its report asks for the messages).
   */
  lendStates(lookup: (events: number) => SimState | undefined): void {
    this.statesAt = lookup;
  }

  /** The log with its closing record (generator position, state hash): what history.jsonl holds. */
  history(): History<SimEvent> {
    return { events: this.store.log, end: { events: this.store.log.length, rng: this.rng.save(), stateHash: this.stateHash() } };
  }

  /** The generator's position: it moves only when a request succeeds or an event draws a value. */
  generatorState(): number[] {
    return this.rng.save();
  }

  get state(): SimState {
    return this.store.state;
  }
  get log(): readonly SimEvent[] {
    return this.store.log;
  }
  get events$() {
    return this.store.events$;
  }
  /**
   * Every message sent between the clusters (and to external stores) so far, in the order sent, each
   * with its delivery or drop once it happened. Derived from the log: a replay holds the same. A fork
   * carries its parent's messages still in flight (not those already delivered or dropped).
   *
   * A world keeps only the messages in flight until this is first read (the history would be most
   * of a long run's heap, and property runs, the explorer and soak tests never read it): then
   * the history is rebuilt by reading the log again from the world's origin through a bus of its own
   * (as a replay does: the same events give the same messages), and kept from then on.
   */
  get messages(): readonly BusMessage[] {
    // A replayed world whose bus is not built yet builds it keeping the history: one reading of the log.
    if (this.live === null) {
      this.live = this.readLog(this.unread, true);
      this.origin = null;
    }
    if (!this.bus.keepsHistory) this.rebuildHistory();
    return this.bus.messages;
  }

  private rebuildHistory(): void {
    const bus = this.readLog(this.store.log.length, true);
    this.bus.keepHistory(bus.messages);
    this.origin = null;
  }
  /** Messages sent and neither delivered nor dropped yet: on their way, or held back by a partition. */
  get inFlight(): readonly BusMessage[] {
    return this.bus.inFlight;
  }
  /** Each send and each delivery on the bus, as it happens. */
  get bus$(): Observable<BusRecord> {
    return this.bus.records$;
  }
  get now(): number {
    return this.store.state.now;
  }
  /**
   * When the next message, check or timed work falls due on the virtual clock (null when nothing is
   * scheduled): between now and then, waiting changes nothing but the clock.
   */
  nextDueAt(): number | null {
    return this.bus.nextDue()?.due ?? null;
  }

  /**
   * sha256 of the canonical JSON of the world's state. A state is frozen, and hashOf keeps a frozen
   * value's hash (kernel/canonical.ts): a run's result and its history's closing line, which ask for
   * the same state's hash, print it once.
   */
  stateHash(): string {
    return hashOf(this.store.state);
  }

  private requireCluster(name: string): void {
    if (!this.store.state.clusters.has(name)) throw new WorldUsageError(`unknown cluster "${name}" (clusters: ${this.store.state.clusters.names.join(', ')})`);
  }

  /**
   * Sends a request to a cluster and returns the service's answer. `token` is a token's value or,
   * as in a scenario, its name: `root` (the cluster's root token as created at start), a token the
   * topology declares, `none` (no token; so is leaving `token` out).
   */
  request(cluster: string, req: ApiRequest): ApiResponse {
    return this.send(cluster, req).response;
  }

  /** Like `request`, with what the router matched and the events appended. */
  send(cluster: string, req: ApiRequest, options: SendOptions = {}): RequestResult {
    this.requireCluster(cluster);
    const d = dispatch(clusterRouting(this.store.state, cluster, this.rng, this.table), this.withTokenValue(cluster, req, options), this.limits);
    if ('later' in d.outcome) throw new WorldUsageError(`${d.summary ?? 'this request'} needs asynchronous work (OpenPGP encryption): use sendAsync`);
    return this.settle(d, d.outcome);
  }

  /** Like `send`, also for requests whose handling is asynchronous (a `pgp_key`). */
  async sendAsync(cluster: string, req: ApiRequest, options: SendOptions = {}): Promise<RequestResult> {
    this.requireCluster(cluster);
    const d = dispatch(clusterRouting(this.store.state, cluster, this.rng, this.table), this.withTokenValue(cluster, req, options), this.limits);
    if (!('later' in d.outcome)) return this.settle(d, d.outcome);
    const before = this.store.log.length;
    const outcome = await d.outcome.later();
    // Nothing may slip in while the work was awaited: the outcome was computed on that state.
    if (this.store.log.length !== before) throw new Error('the world changed while an asynchronous request was in flight');
    return this.settle(d, outcome);
  }

  /** The request with its token's value for a token's name (SendOptions.tokenNames). */
  private withTokenValue(cluster: string, req: ApiRequest, options: SendOptions): ApiRequest {
    if (options.tokenNames === false || typeof req.token !== 'string') return req;
    if (req.token === 'none') return { ...req, token: undefined };
    const value = this.tokenByName(cluster, req.token);
    return value === undefined ? req : { ...req, token: value };
  }

  /**
   * A token's value by the name a scenario gives it: declared on the receiving cluster, else on the
   * one other cluster that declares it (a DR secondary replicates its primary's tokens, so after a
   * failover the primary's `ops` token is the one to use on the promoted cluster); undefined when no
   * cluster declares it.
   */
  tokenByName(cluster: string, name: string): string | undefined {
    const own = this.tokenNamed(cluster, name);
    if (own !== undefined) return own;
    const elsewhere = this.store.state.clusters.names.filter((c) => this.tokenNamed(c, name) !== undefined);
    if (elsewhere.length > 1) throw new WorldUsageError(`token "${name}" is declared on ${elsewhere.join(' and ')} but not on ${cluster}: declare it on ${cluster} too, or give the token's value`);
    return elsewhere.length === 1 ? this.tokenNamed(elsewhere[0], name) : undefined;
  }

  private settle(d: Dispatch<Outcome>, outcome: Exclude<Outcome, { later: unknown }>): RequestResult {
    const requestId = () => this.rng.uuid();
    const explained = (r: Reply) => (r.kind === 'error' ? { refusal: explainRefusal(r) } : {});
    if ('kind' in outcome) return { response: render(outcome, requestId, d.mountType), summary: d.summary, pattern: d.pattern, events: [], ...explained(outcome) };
    this.store.append(...outcome.events);
    const answer = outcome.reply(this.store.state);
    const response = render(answer, requestId, d.mountType);
    return { response, summary: d.summary, pattern: d.pattern, events: outcome.events, ...explained(answer) };
  }

  /**
   * Moves the virtual clock, doing whatever falls due on the way, in time order: the messages,
   * checks and timed work of the bus falling due (a message met by its fate: delivered by its
   * receiver's events, held back, or dropped), at equal times in the order it was scheduled.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new WorldUsageError(`cannot wait ${ms} ms: a wait must be a non-negative number`);
    const target = this.now + ms;
    for (let guard = 0; ; guard++) {
      if (guard > 1_000_000) throw new Error('the bus did not settle: its work keeps falling due');
      const due = this.bus.nextDue();
      if (due && due.due <= target) {
        const at = Math.max(due.due, this.now);
        if (due.message) this.receive(due.message, at);
        else {
          this.bus.take();
          const checker = checkers.get(due.check.slice(0, due.check.indexOf(':')));
          const found = checker ? checker(this.store.state, due.check, at) : [];
          if (found.length) this.store.append(...found);
        }
        continue;
      }
      break;
    }
    this.store.append({ type: 'time-advanced', at: target });
  }

  /** A message of the bus fell due at `at`: the network, then its receiver, decide its fate. */
  private receive(m: BusMessage, at: number): void {
    this.bus.take();
    const state = this.store.state;
    const fate = networkFate(state.network, m);
    if (fate === 'held') return;
    const receiver = receivers.get(m.kind);
    const outcome = fate === 'dropped' ? { drop: `${m.to} is down` } : receiver ? receiver(state, m, this.bus.dueOn(m.stream, at), at) : { drop: `nothing receives ${m.kind} messages` };
    if (outcome === 'wait') return;
    if ('drop' in outcome) {
      this.store.append({ type: 'message-dropped', at, id: m.id, reason: outcome.drop });
      return;
    }
    this.store.append(...outcome);
    // The receiver's events must have delivered it (a source reads them); otherwise it waits to be woken.
  }

  /**
   * A node of the network: a cluster, or the external store behind a sync destination, named by
   * the destination's key (`codehost/gh1`, `team-a/codehost/gh1`), which no cluster name can be.
   */
  private requireNode(name: string): void {
    if (!isStoreNode(name)) return this.requireCluster(name);
    const missing = missingStore(this.store.state.stores, name);
    if (missing) throw new WorldUsageError(missing);
  }

  /** Cuts links: a pair `[a, b]`, or between every two of a list of groups `[[a], [b, c]]`; a node is a cluster or a store. */
  partition(spec: [string, string] | string[][]): void {
    const groups = spec.every((x) => typeof x === 'string') ? (spec as string[]).map((x) => [x]) : (spec as string[][]);
    groups.flat().forEach((c) => this.requireNode(c));
    this.store.append({ type: 'links-cut', at: this.now, links: linksOfPartition(groups) });
  }

  /**
   * Slows the link between two clusters: a message sent on it from now on takes `latencyMs` to
   * arrive, until `heal` restores the link's latency (what is on its way then arrives when due).
   */
  slow(link: [string, string], latencyMs: number): void {
    link.forEach((c) => this.requireCluster(c));
    if (link[0] === link[1]) throw new WorldUsageError(`a link joins two clusters: "${link[0]}" is named twice`);
    if (!Number.isSafeInteger(latencyMs) || latencyMs < 1) throw new WorldUsageError(`a slowed link's latency is a whole number of ms of at least 1, not ${latencyMs}`);
    const [a, b] = link[0] < link[1] ? link : [link[1], link[0]];
    this.store.append({ type: 'links-slowed', at: this.now, links: [[a, b]], latencyMs });
  }

  /** Restores one link, or every link (cut or slowed). */
  heal(spec: [string, string] | 'all'): void {
    if (spec !== 'all') spec.forEach((c) => this.requireNode(c));
    this.store.append({ type: 'links-healed', at: this.now, links: spec === 'all' ? 'all' : [spec] });
  }

  crash(cluster: string): void {
    this.requireCluster(cluster);
    this.store.append({ type: 'cluster-crashed', at: this.now, cluster, ended: connectionsEndedBy(this.state, cluster) });
  }

  restart(cluster: string): void {
    this.requireCluster(cluster);
    this.store.append({ type: 'cluster-restarted', at: this.now, cluster });
  }

  /**
   * Does a step an area declares: a fault (`corrupt`, `destination-fault`, `reload`) or an
   * inspection (`inspect`), as its area's `steps.ts` says (src/areas/core/steps.ts). Answers what an
   * inspection read; a `WorldUsageError` when the world has not what the step names (nothing changed).
   */
  areaStep(step: AreaStep): Inspected | void {
    const declared = AREA_STEPS.get(step.kind);
    if (!declared) throw new WorldUsageError(`no area declares a "${step.kind}" step`);
    const store = this.store;
    const requireCluster = (name: string) => this.requireCluster(name);
    return declared.apply(
      {
        get state() {
          return store.state;
        },
        cluster(name) {
          requireCluster(name);
          return store.state.clusters.named(name);
        },
        append: (event) => store.append(event),
      },
      step,
    );
  }

  /** The built-in scenario variables: `<cluster>.root_token`, `.keys.<i>`, `.api_addr`, `.cluster_addr`. */
  variables(): Record<string, string> {
    const vars: Record<string, string> = {};
    const s = this.store.state;
    for (const [name, ops] of Object.entries(s.operators)) {
      vars[`${name}.root_token`] = ops.rootToken;
      ops.keys.forEach((k, i) => (vars[`${name}.keys.${i}`] = k));
      vars[`${name}.api_addr`] = s.clusters.named(name).apiAddr;
      vars[`${name}.cluster_addr`] = s.clusters.named(name).clusterAddr;
    }
    return vars;
  }

  /** A token's value by the scenario's name for it on a cluster (`root` or a declared token), as created at start. */
  tokenNamed(cluster: string, name: string): string | undefined {
    this.requireCluster(cluster);
    return own(this.store.state.operators[cluster].tokens, name);
  }
}
