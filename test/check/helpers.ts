// Worlds, observations and broken states for the monitor tests. A correct run goes through the API
// with a Watch that sees every response; a broken one is an observation built by hand: real events
// folded by the world's reducers (a handler that emitted what it must not), or a real step whose
// resulting state is edited (a reducer that did what it must not).
import { produce } from 'immer';
import { foldEvent, Watch } from '../../src/check/catalogue.js';
import type { Finding, Monitor, MonitorFactory, Observation, ResponseObservation } from '../../src/areas/monitoring/types.js';
import type { ApiRequest, ApiResponse } from '../../src/kernel/http/http.js';
import type { SimEvent } from '../../src/areas/core/events.js';
import type { ClusterState, SimState } from '../../src/areas/core/state.js';
import { World } from '../../src/world.js';

export const DR = 'sys/replication/dr';
export const PERF = 'sys/replication/performance';

/** A world driven through a Watch of the given monitors: every request is reported, every call is one step. */
export class Watched {
  readonly watch: Watch;
  constructor(
    readonly w: World,
    factories: MonitorFactory[],
  ) {
    this.watch = new Watch(w, factories);
  }
  get findings(): Finding[] {
    return this.watch.findings;
  }
  /** Findings of one id (the other monitors of a catalogue may report too). */
  of(id: string): Finding[] {
    return this.watch.findings.filter((f) => f.id === id);
  }
  request(cluster: string, req: ApiRequest): ApiResponse {
    const r = this.watch.send(cluster, req).response;
    this.watch.afterStep();
    return r;
  }
  post(cluster: string, path: string, body?: unknown, token: string | null = this.root(cluster)): ApiResponse {
    return this.request(cluster, { method: 'POST', path, body, token: token ?? undefined });
  }
  get(cluster: string, path: string, token?: string): ApiResponse {
    return this.request(cluster, { method: 'GET', path, token });
  }
  /** Posts and throws with the body when the answer is not a success. */
  ok(cluster: string, path: string, body?: unknown, token: string | null = this.root(cluster)): any {
    const r = this.post(cluster, path, body, token);
    if (r.status >= 300) throw new Error(`${path} on ${cluster}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
  advance(ms: number): void {
    this.w.advance(ms);
    this.watch.afterStep();
  }
  partition(a: string, b: string): void {
    this.w.partition([a, b]);
    this.watch.afterStep();
  }
  heal(): void {
    this.w.heal('all');
    this.watch.afterStep();
  }
  crash(c: string): void {
    this.w.crash(c);
    this.watch.afterStep();
  }
  restart(c: string): void {
    this.w.restart(c);
    this.watch.afterStep();
  }
  /** The root token `cluster` was initialised with. */
  root(cluster: string): string {
    return this.w.state.operators[cluster].rootToken;
  }
  write(cluster: string, key: string, data: Record<string, unknown>, mount = 'secret', token = this.root(cluster)): ApiResponse {
    return this.post(cluster, `${mount}/data/${key}`, { data }, token);
  }

  // --- DR, as an operator runs it ---
  drPrimary(c: string): void {
    this.ok(c, `${DR}/primary/enable`);
  }
  drToken(primary: string, id: string, token = this.root(primary)): string {
    return this.ok(primary, `${DR}/primary/secondary-token`, { id }, token).wrap_info.token;
  }
  drSecondary(primary: string, secondary: string, id = secondary): void {
    this.ok(secondary, `${DR}/secondary/enable`, { token: this.drToken(primary, id) });
  }
  /** A DR operation token generated on a DR secondary with the key shares of `keysOf`. */
  operationToken(cluster: string, keysOf: string): string {
    const start = this.ok(cluster, `${DR}/secondary/generate-operation-token/attempt`, {}, null);
    let last: any = start;
    for (const key of this.w.state.operators[keysOf].keys.slice(0, start.required))
      last = this.ok(cluster, `${DR}/secondary/generate-operation-token/update`, { key, nonce: start.nonce }, null);
    if (!last.complete) throw new Error('the generation did not complete');
    return this.w.state.clusters.named(cluster).drOperationToken!;
  }

  // --- performance ---
  perfPrimary(c: string): void {
    this.ok(c, `${PERF}/primary/enable`);
  }
  perfSecondary(primary: string, secondary: string, id = secondary): void {
    const token = this.ok(primary, `${PERF}/primary/secondary-token`, { id }).wrap_info.token;
    this.ok(secondary, `${PERF}/secondary/enable`, { token });
  }
}

/** Default clusters: KV-v2 `secret/`, a local `cache/`. */
export const SPEC = { mounts: { secret: 'kv-v2' as const, cache: { type: 'kv-v2' as const, local: true } } };

export function world(names: string[] = ['east', 'west', 'south'], options: { seed?: number; latencyMs?: number; versions?: Record<string, string> } = {}): World {
  return World.create(Object.fromEntries(names.map((n) => [n, { ...SPEC, version: options.versions?.[n] }])), { seed: options.seed ?? 1, latencyMs: options.latencyMs });
}

/** An observation of hand-written events after `before`, folded by the world's own reducers. */
export function folded(before: SimState, events: SimEvent[], responses: ResponseObservation[] = []): Observation {
  const stamped = events.map((e, i) => ({ ...e, seq: 1_000_000 + i }) as SimEvent);
  return { before, events: stamped, state: stamped.reduce(foldEvent, before), responses, fold: foldEvent };
}

/** A state with its clusters as a plain record, for a test to break by hand. */
export type OpenedState = Omit<SimState, 'clusters'> & { clusters: Record<string, ClusterState> };

/** The state edited by `recipe` on an immer draft of it, its clusters opened as a plain record (no cluster may be removed). */
export function editedState(state: SimState, recipe: (draft: OpenedState) => void): SimState {
  const opened: OpenedState = { ...state, clusters: state.clusters.toJSON() };
  const after = produce(opened, recipe);
  let clusters = state.clusters;
  for (const name in after.clusters) clusters = clusters.set(name, after.clusters[name]);
  return Object.freeze({ ...after, clusters });
}

/** An observation whose resulting state (after every event) is the real one edited by `recipe`. */
export function edited(o: Observation, recipe: (draft: OpenedState) => void): Observation {
  const states = o.events.map((_, i) => (i === o.events.length - 1 ? editedState(o.state, recipe) : (o.states?.[i] ?? o.state)));
  return { ...o, state: editedState(o.state, recipe), states: o.events.length ? states : undefined };
}

/** A step observed by hand: runs `act` on the world and returns what a watch would show. */
export function stepOf(w: World, act: () => void): Observation {
  const before = w.state;
  const from = w.log.length;
  const states: SimState[] = [];
  const sub = w.events$.subscribe(() => states.push(w.state));
  act();
  sub.unsubscribe();
  return { before, events: w.log.slice(from) as SimEvent[], state: w.state, states };
}

/** A response as the watch records it, made up for a test. */
export function response(cluster: string, request: ApiRequest, res: ApiResponse, before: SimState, after = before): ResponseObservation {
  return { cluster, request, response: res, before, after, eventIndex: 0 };
}

/** Every finding of a monitor over a sequence of observations. */
export function observeAll(m: Monitor, ...os: Observation[]): Finding[] {
  return os.flatMap((o) => m.observe(o));
}
