// The operator: the "real" side of the model-based commands. It acts on a World only as an operator
// would (API requests, waits, faults), runs the invariant and hazard catalogue once after each
// command, and, when asked, writes down every step it took in scenario format 1, so that a sequence
// of commands becomes a scenario file that `replsim run` replays unchanged.
import { modeOf } from '../../../models/replication-role.machine.js';
import { decodeToken } from '../../areas/core/crypto/otp.js';
import type { SimEvent } from '../../areas/core/events.js';
import type { SimState } from '../../areas/core/state.js';
import type { Unsubscribable } from 'rxjs';
import type { ApiResponse, Method } from '../../kernel/http/http.js';
import { formatMs } from '../../kernel/clock.js';
import { getPath } from '../../scenario/dotted.js';
import type { World } from '../../world.js';
import { foldEvent, Watch } from '../../check/catalogue.js';
import type { Finding, MonitorFactory, Observation, ResponseObservation } from '../../areas/monitoring/types.js';
import { ModelMismatch } from '../../areas/property/model.js';
import { obtainRootToken } from '../../areas/operation-token/commands/operation-token.js';
import { Ref, type Answer, type Body, type OperatorPort, type RequestOptions, type ScriptStep } from '../../areas/property/answer.js';
export { Ref, type Answer, type Body, type RequestOptions, type ScriptStep } from '../../areas/property/answer.js';


/** A finding that ends a run: an invariant violated, or a hazard the run forbids. */
export class FindingError extends Error {
  override name = 'FindingError';
  constructor(readonly finding: Finding) {
    super(`${finding.kind} ${finding.id}: ${finding.message}`);
  }
}

export interface OperatorOptions {
  /** Run the catalogue after each command (default true). The explorer runs it itself. */
  watch?: boolean;
  /** Write down the scenario steps (default false: property runs do not need them). */
  record?: boolean;
  /** Hazard ids that end the run as a failure; invariant violations always do. */
  forbid?: Iterable<string>;
  /** Events before this world's own log: the genesis of the template it was forked from. */
  history?: readonly SimEvent[];
  /** Root key (hex) → the cluster whose operators were handed its shares; computed from the world when absent. */
  keyOwners?: ReadonlyMap<string, string>;
  /** Root tokens the operator generated earlier, by cluster (the explorer hands a copy to each branch). */
  generatedRoots?: ReadonlyMap<string, Ref>;
  /**
   * Requests already sent from this world's state by other operators (the explorer's commands tried
   * from one state): a request that repeats one of them, after the same requests before it, takes
   * its answer and the world after it instead of being sent again (see `SharedRequests`). Only
   * without a Watch: the world is then replaced by forks as the command goes, so `world.log` holds
   * only its last part; the command's events are in `lastObservation`.
   */
  shared?: SharedRequests;
  /** The monitors the Watch starts with (default: the catalogue's, fresh); a run from a scenario's world takes forks of those that watched it. */
  monitors?: MonitorFactory[];
  /** Variable names already taken (a scenario's saves, before the commands' steps): its own saves take others. */
  variables?: Iterable<string>;
}

/**
 * The requests sent from one world's state, as a tree: each request, after the requests before it,
 * with the service's answer, the events it appended (with the state after each), and the world just
 * after it, kept unchanged. The world is deterministic (the same state and generator position, and
 * the same request, give the same events and answer), so a second operator that sends the same
 * requests in the same order from that state would get exactly these: it takes them instead (a fork
 * of the world kept). The explorer tries several commands from each state, and some begin alike:
 * promoting a DR secondary with and without force, and disabling it, each first generate a DR
 * operation token there with the same requests (an attempt, then every key share).
 */
export class SharedRequests {
  readonly next = new Map<string, SharedRequest>();
}

interface SharedRequest {
  /**
   * The world right after the request, never changed again (takers work on forks of it); null
   * until the operator that sent it sends another request. The last request of a command is
   * usually not repeated by another (that would be the same command, which the explorer tries
   * once), so keeping the world after each one would cost a fork per command for nothing.
   */
  world: World | null;
  response: ApiResponse;
  events: SimEvent[];
  states: SimState[];
  then: SharedRequests;
}

/** What decides a request's outcome beyond the world's state: the cluster, the request line, the token and the body. */
function requestKey(on: string, method: Method, path: string, token: string | undefined, body: Body | undefined): string {
  return `${on} ${method} ${path} ${token ?? '-'} ${body === undefined ? '-' : JSON.stringify(body)}`;
}

/** Root key → the cluster it was created on: whose key shares open a keyring (read from a world at genesis). */
export function keyOwnersOf(state: SimState): Map<string, string> {
  const owners = new Map<string, string>();
  for (const c of state.clusters) owners.set(c.storage.keyring.rootKeyHex, c.name);
  return owners;
}

export class Operator implements OperatorPort {
  private current: World;
  readonly watch: Watch | null;
  readonly script: ScriptStep[] | null;
  readonly findings: Finding[] = [];
  readonly forbid: ReadonlySet<string>;
  readonly history: readonly SimEvent[];
  private readonly keyOwners: ReadonlyMap<string, string>;
  private readonly counters = new Map<string, number>();
  private readonly takenNames: ReadonlySet<string>;
  /** Root tokens generated with sys/generate-root, by cluster, kept while they work there. */
  readonly generatedRoots: Map<string, Ref>;
  private heading = '';
  private commandStart = 0;
  /** Without a Watch: what the current command did, for whoever runs the monitors (the explorer). */
  private responses: ResponseObservation[] = [];
  /** Without a Watch: the current command's events, and the state after each, as the world appended them. */
  private events: SimEvent[] = [];
  private states: SimState[] = [];
  private listening: Unsubscribable | null = null;
  /** Where the current command stands in the shared requests (null: not sharing, or it did something else than a request). */
  private sharing: SharedRequests | null;
  /** The last request sent while sharing, whose world is kept only once another request follows. */
  private unkept: SharedRequest | null = null;
  private commandStateStart: SimState;
  /** Without a Watch: the last command's observation, for the monitors. */
  lastObservation: Observation | null = null;
  /** Commands run, requests sent and requests refused: the run's statistics. */
  commands = 0;
  requests = 0;
  refused = 0;
  /** Requests whose outcome was taken from the shared ones (counted in `requests` too). */
  taken = 0;

  constructor(world: World, options: OperatorOptions = {}) {
    this.current = world;
    this.watch = options.watch === false ? null : new Watch(world, options.monitors);
    if (this.watch && options.shared) throw new Error('an operator with a Watch cannot take shared requests: the Watch follows one world');
    this.sharing = options.shared ?? null;
    this.script = options.record ? [] : null;
    this.forbid = new Set(options.forbid ?? []);
    this.history = options.history ?? [];
    this.keyOwners = options.keyOwners ?? keyOwnersOf(world.state);
    this.generatedRoots = new Map(options.generatedRoots ?? []);
    this.takenNames = new Set(options.variables ?? []);
    this.commandStateStart = world.state;
    if (!this.watch) this.listen();
  }

  /** The world it acts on (without a Watch, a fork taken on the way when requests are shared). */
  get world(): World {
    return this.current;
  }

  /** Without a Watch, the operator keeps each event and the state after it itself, as the Watch would. */
  private listen(): void {
    const world = this.current;
    this.listening = world.events$.subscribe((event) => {
      this.events.push(event);
      this.states.push(world.state);
    });
  }

  /** Goes on with another world (a fork): the one it leaves is kept unchanged for other operators. */
  private moveTo(world: World): void {
    this.listening?.unsubscribe();
    this.current = world;
    this.listen();
  }

  /** The whole log: the template's genesis, then this world's events. */
  fullLog(): SimEvent[] {
    return [...this.history, ...this.world.log];
  }

  /** A fresh variable name for the scenario file: `westToken`, then `westToken2`, ... */
  private variable(base: string): string {
    for (;;) {
      const n = (this.counters.get(base) ?? 0) + 1;
      this.counters.set(base, n);
      const name = n === 1 ? base : `${base}${n}`;
      if (!this.takenNames.has(name)) return name;
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Commands

  beginCommand(words: string): void {
    this.heading = words;
    this.commandStart = this.script?.length ?? 0;
    this.commandStateStart = this.world.state;
    this.responses = [];
    this.events = [];
    this.states = [];
  }

  /**
   * Ends a command: names its steps (the first by the command's words) and runs the catalogue once.
   * Throws a FindingError on an invariant violation or a forbidden hazard.
   */
  endCommand(): Finding[] {
    this.commands++;
    if (this.script) {
      const steps = this.script.slice(this.commandStart);
      if (steps.length === 1) steps[0].name = this.heading;
      else if (steps.length > 1) steps[0].name = `${this.heading}: ${steps[0].name}`;
    }
    if (!this.watch) {
      this.lastObservation = { state: this.world.state, before: this.commandStateStart, events: this.events, states: this.states, responses: this.responses, fold: foldEvent };
      return [];
    }
    const found = this.watch.afterStep();
    if (found.length === 0) return found;
    this.findings.push(...found);
    for (const f of found) if (f.kind === 'violation' || this.forbid.has(f.id)) throw new FindingError(f);
    return found;
  }

  // -------------------------------------------------------------------------------------------------
  // What an operator knows about the clusters

  /**
   * A root token that works on `cluster`, and how the scenario file names it (null: the default,
   * its own): its own if it still has it, else the original one its storage now holds, else one
   * generated there earlier, else one generated now (steps of the current command). A crashed
   * cluster, or one that will not generate, gets its own (and refuses it).
   */
  private rootToken(cluster: string): { value: string; ref: string | null } {
    const s = this.world.state;
    const tokens = s.clusters.named(cluster).storage.tokens;
    const own = s.operators[cluster].rootToken;
    if (own in tokens) return { value: own, ref: null };
    for (const [name, ops] of Object.entries(s.operators)) if (ops.rootToken in tokens) return { value: ops.rootToken, ref: '${' + name + '.root_token}' };
    const earlier = this.generatedRoots.get(cluster);
    if (earlier && earlier.value in tokens) return { value: earlier.value, ref: earlier.ref };
    if (s.network.down[cluster] || modeOf(s.clusters.named(cluster).replication.dr.role) === 'secondary') return { value: own, ref: null };
    const generated = obtainRootToken(this, cluster);
    if (!generated) return { value: own, ref: null };
    this.generatedRoots.set(cluster, generated);
    return { value: generated.value, ref: generated.ref };
  }

  /** The key shares that open `cluster`'s keyring now (its own, or those of the primary whose keyring it holds). */
  keyShares(cluster: string, count: number): { owner: string; shares: Ref[] } {
    const s = this.world.state;
    const owner = this.keyOwners.get(s.clusters.named(cluster).storage.keyring.rootKeyHex);
    if (owner === undefined) throw new ModelMismatch(`${cluster} holds a keyring no operator was given the shares of`);
    const keys = s.operators[owner].keys;
    return { owner, shares: keys.slice(0, count).map((k, i) => Ref.builtin(`${owner}.keys.${i}`, k)) };
  }

  clusterAddr(cluster: string): Ref {
    return Ref.builtin(`${cluster}.cluster_addr`, this.world.state.clusters.named(cluster).clusterAddr);
  }

  // -------------------------------------------------------------------------------------------------
  // Acting

  request(on: string, method: Method, path: string | (string | Ref)[], options: RequestOptions): Answer {
    const parts = typeof path === 'string' ? [path] : path;
    const realPath = parts.map((p) => (p instanceof Ref ? p.value : p)).join('');
    const token = options.token ?? 'root';
    const root = token === 'root' ? this.rootToken(on) : null;
    const body = options.body === undefined ? undefined : (resolve(options.body, 'value') as Body);

    const appendedBefore = this.appended();
    const stateBefore = this.world.state;
    const response = this.send(on, { method, path: realPath, body, token: root?.value });
    this.requests++;
    // The monitors that judge answers (dr-secondary-closed, otp-never-returned, ...) see every request.
    const observed = { cluster: on, request: { method, path: realPath, body }, response, before: stateBefore };
    if (this.watch) this.watch.observeResponse(on, observed.request, response, stateBefore);
    else this.responses.push({ ...observed, after: this.world.state, eventIndex: this.events.length });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok) {
      this.refused++;
      if (!options.refusalMayRecord && (this.appended() !== appendedBefore || this.world.state !== stateBefore))
        throw new ModelMismatch(`${method} ${realPath} on ${on} was refused (${response.status}) yet changed the world`);
    }

    const saved: Record<string, Ref> = {};
    if (ok && options.save) {
      for (const [base, at] of Object.entries(options.save)) {
        const value = getPath(response.body, at);
        if (typeof value !== 'string') throw new ModelMismatch(`${method} ${realPath} on ${on} answered ${response.status} without a string at "${at}"`);
        saved[base] = new Ref(value, '${' + this.variable(base) + '}');
      }
    }

    if (this.script) {
      const step: ScriptStep = { name: options.label, request: `${method} ${parts.map((p) => (p instanceof Ref ? p.ref : p)).join('')}`, on };
      if (token === 'none') step.token = 'none';
      else if (root?.ref) step.token = root.ref;
      if (options.body !== undefined) step.body = resolve(options.body, 'ref');
      if (!ok) step.expect = { status: response.status };
      const saves = Object.entries(saved);
      if (saves.length > 0) step.save = Object.fromEntries(saves.map(([base, r]) => [r.ref.slice(2, -1), options.save![base]]));
      this.script.push(step);
    }
    return { status: response.status, body: response.body, ok, saved };
  }

  /** Sends a request to the world, or takes its outcome from the shared requests when another operator sent it from here. */
  private send(on: string, request: { method: Method; path: string; body: Body | undefined; token: string | undefined }): ApiResponse {
    const at = this.sharing;
    if (!at) return this.world.request(on, request);
    // A request follows the last one: the world after that one is worth keeping now.
    if (this.unkept) {
      this.unkept.world = this.world;
      this.moveTo(this.world.fork());
      this.unkept = null;
    }
    const key = requestKey(on, request.method, request.path, request.token, request.body);
    const known = at.next.get(key);
    if (known?.world) {
      this.taken++;
      this.moveTo(known.world.fork());
      this.events.push(...known.events);
      this.states.push(...known.states);
      this.sharing = known.then;
      return known.response;
    }
    const [events, states] = [this.events.length, this.states.length];
    const response = this.world.request(on, request);
    // Sent before by an operator that sent nothing after it (no world kept): the same step, kept now if this one goes on.
    const step: SharedRequest = known ?? { world: null, response, events: this.events.slice(events), states: this.states.slice(states), then: new SharedRequests() };
    if (!known) at.next.set(key, step);
    this.unkept = step;
    this.sharing = step.then;
    return response;
  }

  /** Events appended so far (without a Watch the world may have been replaced by a fork on the way: the operator counts them). */
  private appended(): number {
    return this.watch ? this.world.log.length : this.events.length;
  }

  /** Anything but a request ends the sharing: what follows depends on it too. */
  private unshared(): void {
    this.sharing = null;
    this.unkept = null;
  }

  /** Decodes an encoded operation token with its OTP, as the service's CLI does (the `decode-token` step). */
  decode(encoded: Ref, otp: Ref, base: string, label: string): Ref {
    let value: string;
    try {
      value = decodeToken(encoded.value, otp.value);
    } catch (e) {
      throw new ModelMismatch(`the encoded operation token does not decode with its OTP: ${(e as Error).message}`);
    }
    const decoded = new Ref(value, '${' + this.variable(base) + '}');
    this.script?.push({ name: label, 'decode-token': encoded.ref, otp: otp.ref, save: decoded.ref.slice(2, -1) });
    return decoded;
  }

  wait(ms: number, label: string): void {
    this.unshared();
    this.world.advance(ms);
    this.script?.push({ name: label, wait: formatMs(ms) });
  }

  partition(a: string, b: string, label: string): void {
    this.unshared();
    this.world.partition([a, b]);
    this.script?.push({ name: label, partition: [a, b] });
  }

  heal(link: [string, string] | 'all', label: string): void {
    this.unshared();
    this.world.heal(link);
    this.script?.push({ name: label, heal: link === 'all' ? 'all' : [...link] });
  }

  crash(cluster: string, label: string): void {
    this.unshared();
    this.world.crash(cluster);
    this.script?.push({ name: label, crash: cluster });
  }

  restart(cluster: string, label: string): void {
    this.unshared();
    this.world.restart(cluster);
    this.script?.push({ name: label, restart: cluster });
  }
}

/** A body with each Ref replaced by its value (for the world) or its `${...}` (for the file). */
function resolve(value: unknown, as: 'value' | 'ref'): unknown {
  if (value instanceof Ref) return as === 'value' ? value.value : value.ref;
  if (Array.isArray(value)) return value.map((v) => resolve(v, as));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolve(v, as);
    return out;
  }
  return value;
}
