// The composition root: a World is the event store (log + state), the seeded generator, the API
// router and the timed processes, wired together. Everything a user does to a world (a request, a
// wait, a fault) goes through here and ends as events in the log, or as a refusal that changes
// nothing.
import { coreReducers } from './cluster/reducers.js';
import type { SimEvent } from './cluster/events.js';
import { genesisEvent, type Topology } from './cluster/genesis.js';
import { domainProcesses, domainReducers } from './cluster/domain.js';
import type { SimState } from './cluster/state.js';
import { destinationForFault, isDestinationFault } from './cluster/sync.js';
import { DESTINATION_TYPES } from './sync/destinations.js';
import { isStoreNode, parseStoreRef, type ExternalStore } from './sync/external-store.js';
import { render, type ApiRequest, type ApiResponse } from './api/http.js';
import { kvRoutes } from './api/kv.js';
import { dispatch, type Dispatch, type RouteTable } from './api/router.js';
import type { Outcome } from './api/route.js';
import { sysRoutes } from './api/sys-routes.js';
import { hashOf } from './world/canonical.js';
import { EventStore, foldEvents, type ReducerTable } from './world/engine.js';
import { DEFAULT_LATENCY_MS, initialNetwork, linksOfPartition, networkReducers } from './world/network.js';
import { SeededRng } from './world/prng.js';

export const reducers = { ...coreReducers, ...networkReducers, ...domainReducers } as ReducerTable<SimState, SimEvent>;
export const routes: RouteTable = { sys: sysRoutes, mounts: kvRoutes };
const processes = domainProcesses;

/** A caller's mistake in driving a world (an unknown cluster, a negative wait): nothing changed. */
export class WorldUsageError extends Error {}

export interface WorldOptions {
  seed?: number;
  latencyMs?: number;
}

/** A request's response with what the router found, for narration and run history. */
export interface RequestResult {
  response: ApiResponse;
  /** The endpoint's summary in the spec's words, when a route matched. */
  summary?: string;
  pattern?: string;
  /** The events the request appended (none when refused or read-only). */
  events: SimEvent[];
}

function emptyState(seed: number, latencyMs: number): SimState {
  return { now: 0, seed, network: initialNetwork(latencyMs), clusters: {}, operators: {}, stores: {} };
}

export class World {
  private constructor(
    private readonly store: EventStore<SimState, SimEvent>,
    private readonly rng: SeededRng,
  ) {}

  /** A new world: its clusters initialised from the topology with values drawn from the seed. */
  static create(topology: Topology, options: WorldOptions = {}): World {
    const seed = options.seed ?? 1;
    const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
    const names = Object.keys(topology);
    if (names.length === 0) throw new WorldUsageError('a world needs at least one cluster');
    for (const n of names) if (!/^[a-z][a-z0-9-]*$/.test(n)) throw new WorldUsageError(`cluster name "${n}" must match [a-z][a-z0-9-]*`);
    const rng = new SeededRng(seed);
    const store = new EventStore<SimState, SimEvent>(emptyState(seed, latencyMs), reducers);
    store.append(genesisEvent(topology, seed, rng, latencyMs));
    return new World(store, rng);
  }

  /** Rebuilds a world from its log alone: no handler, clock or generator runs. */
  static replay(events: readonly SimEvent[]): World {
    const first = events[0];
    if (!first || first.type !== 'world-created') throw new WorldUsageError('a history must start with a world-created event');
    const state = foldEvents(emptyState(first.seed, first.latencyMs), events, reducers);
    const store = EventStore.fromState<SimState, SimEvent>(state, reducers);
    // The replayed world keeps the log it was built from, so it can be saved again unchanged.
    // One push at a time: `push(...events)` passes every event as an argument and overflows the
    // call stack beyond some 100,000 events (found by the replay benchmark).
    const log = store.log as SimEvent[];
    for (const e of events) log.push(e);
    return new World(store, new SeededRng(first.seed));
  }

  /** A world that continues from this one's state and generator, with a log of its own. */
  fork(): World {
    return new World(EventStore.fromState(this.store.state, reducers), new SeededRng(0, this.rng.save()));
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
  get now(): number {
    return this.store.state.now;
  }

  /** sha256 of the canonical JSON of the world's state. */
  stateHash(): string {
    return hashOf(this.store.state);
  }

  private requireCluster(name: string): void {
    if (!(name in this.store.state.clusters)) throw new WorldUsageError(`unknown cluster "${name}" (clusters: ${Object.keys(this.store.state.clusters).join(', ')})`);
  }

  /** Sends a request to a cluster and returns the service's answer. */
  request(cluster: string, req: ApiRequest): ApiResponse {
    return this.send(cluster, req).response;
  }

  /** Like `request`, with what the router matched and the events appended. */
  send(cluster: string, req: ApiRequest): RequestResult {
    this.requireCluster(cluster);
    const d = dispatch(this.store.state, cluster, req, this.rng, routes);
    if ('later' in d.outcome) throw new WorldUsageError(`${d.summary ?? 'this request'} needs asynchronous work (OpenPGP encryption): use sendAsync`);
    return this.settle(d, d.outcome);
  }

  /** Like `send`, also for requests whose handling is asynchronous (a `pgp_key`). */
  async sendAsync(cluster: string, req: ApiRequest): Promise<RequestResult> {
    this.requireCluster(cluster);
    const d = dispatch(this.store.state, cluster, req, this.rng, routes);
    if (!('later' in d.outcome)) return this.settle(d, d.outcome);
    const before = this.store.log.length;
    const outcome = await d.outcome.later();
    // Nothing may slip in while the work was awaited: the outcome was computed on that state.
    if (this.store.log.length !== before) throw new Error('the world changed while an asynchronous request was in flight');
    return this.settle(d, outcome);
  }

  private settle(d: Dispatch, outcome: Exclude<Outcome, { later: unknown }>): RequestResult {
    const requestId = () => this.rng.uuid();
    if ('kind' in outcome) return { response: render(outcome, requestId, d.mountType), summary: d.summary, pattern: d.pattern, events: [] };
    this.store.append(...outcome.events);
    const response = render(outcome.reply(this.store.state), requestId, d.mountType);
    return { response, summary: d.summary, pattern: d.pattern, events: outcome.events };
  }

  /** Moves the virtual clock, delivering and expiring whatever falls due on the way, in time order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new WorldUsageError(`cannot wait ${ms} ms: a wait must be a non-negative number`);
    const target = this.now + ms;
    for (let guard = 0; ; guard++) {
      if (guard > 1_000_000) throw new Error('timed processes did not settle: a process keeps reporting due work');
      let next: { at: number; events: SimEvent[] } | null = null;
      for (const p of processes) {
        const due = p(this.store.state);
        if (due && due.at <= target && (!next || due.at < next.at)) next = due;
      }
      if (!next) break;
      for (const e of next.events) e.at = Math.max(e.at, this.now);
      this.store.append(...next.events);
    }
    this.store.append({ type: 'time-advanced', at: target });
  }

  /**
   * A node of the network: a cluster, or the external store behind a sync destination, named by
   * the destination's key (`codehost/gh1`, `team-a/codehost/gh1`), which no cluster name can be.
   */
  private requireNode(name: string): void {
    if (!isStoreNode(name)) return this.requireCluster(name);
    if (name in this.store.state.stores) return;
    const known = Object.keys(this.store.state.stores).sort();
    throw new WorldUsageError(
      `no external store "${name}" (${known.length ? `stores: ${known.join(', ')}` : 'none yet: a store appears when a sync destination is created, POST sys/sync/destinations/<type>/<name>'})`,
    );
  }

  /** Cuts links: a pair `[a, b]`, or between every two of a list of groups `[[a], [b, c]]`; a node is a cluster or a store. */
  partition(spec: [string, string] | string[][]): void {
    const groups = spec.every((x) => typeof x === 'string') ? (spec as string[]).map((x) => [x]) : (spec as string[][]);
    groups.flat().forEach((c) => this.requireNode(c));
    this.store.append({ type: 'links-cut', at: this.now, links: linksOfPartition(groups) });
  }

  /** Restores one link, or every link. */
  heal(spec: [string, string] | 'all'): void {
    if (spec !== 'all') spec.forEach((c) => this.requireNode(c));
    this.store.append({ type: 'links-healed', at: this.now, links: spec === 'all' ? 'all' : [spec] });
  }

  crash(cluster: string): void {
    this.requireCluster(cluster);
    this.store.append({ type: 'cluster-crashed', at: this.now, cluster });
  }

  restart(cluster: string): void {
    this.requireCluster(cluster);
    this.store.append({ type: 'cluster-restarted', at: this.now, cluster });
  }

  /** Damages a merkle page of a cluster's tree (the `corrupt` fault). */
  corrupt(spec: { on: string; tree: 'replicated' | 'local'; page: number; subpage: number }): void {
    this.requireCluster(spec.on);
    if (!Number.isInteger(spec.page) || spec.page < 0 || !Number.isInteger(spec.subpage) || spec.subpage < 0 || spec.subpage > 255)
      throw new WorldUsageError('corrupt: page must be a whole number >= 0 and subpage one from 0 to 255');
    this.store.append({ type: 'merkle-corrupted', at: this.now, cluster: spec.on, tree: spec.tree, page: spec.page, subpage: spec.subpage });
  }

  /**
   * Makes the external store behind a sync destination fail (`unreachable`, `unauthorized`) or
   * heals it (`none`): the `destination-fault` fault. `name` is the destination's name, or
   * `<namespace>/<name>` for one created in a namespace.
   */
  destinationFault(spec: { on: string; type: string; name: string; fault: string }): void {
    this.requireCluster(spec.on);
    if (!isDestinationFault(spec.fault)) throw new WorldUsageError(`destination-fault: fault "${spec.fault}" is not one of unreachable, unauthorized, none`);
    const found = destinationForFault(this.store.state.clusters[spec.on], spec.type, spec.name);
    if ('problem' in found) throw new WorldUsageError(found.problem);
    this.store.append({ type: 'sync-destination-faulted', at: this.now, cluster: spec.on, destination: found.key, fault: spec.fault });
  }

  /**
   * What the external store behind a sync destination holds now (the `inspect` step): `ref` is
   * `<type>/<name>` or `<namespace>/<type>/<name>`. A copy: changing it changes nothing.
   */
  inspectStore(ref: string): { key: string; store: ExternalStore } {
    const parsed = parseStoreRef(ref, DESTINATION_TYPES);
    if (!parsed) throw new WorldUsageError(`inspect: "${ref}" does not name a store: write <type>/<name> (or <namespace>/<type>/<name>), the type one of ${DESTINATION_TYPES.join(', ')}`);
    this.requireNode(parsed.key);
    return { key: parsed.key, store: structuredClone(this.store.state.stores[parsed.key]) };
  }

  /** The built-in scenario variables: `<cluster>.root_token`, `.keys.<i>`, `.api_addr`, `.cluster_addr`. */
  variables(): Record<string, string> {
    const vars: Record<string, string> = {};
    const s = this.store.state;
    for (const [name, ops] of Object.entries(s.operators)) {
      vars[`${name}.root_token`] = ops.rootToken;
      ops.keys.forEach((k, i) => (vars[`${name}.keys.${i}`] = k));
      vars[`${name}.api_addr`] = s.clusters[name].apiAddr;
      vars[`${name}.cluster_addr`] = s.clusters[name].clusterAddr;
    }
    return vars;
  }

  /** A token's value by the scenario's name for it on a cluster (`root` or a declared token), as created at start. */
  tokenNamed(cluster: string, name: string): string | undefined {
    this.requireCluster(cluster);
    return this.store.state.operators[cluster].tokens[name];
  }
}
