// The operator: the "real" side of the model-based commands. It acts on a World only as an operator
// would (API requests, waits, faults), runs the invariant and hazard catalogue once after each
// command, and, when asked, writes down every step it took in scenario format 1, so that a sequence
// of commands becomes a scenario file that `replsim run` replays unchanged.
import { modeOf } from '../../../models/replication-role.machine.js';
import { decodeToken } from '../../areas/cluster/crypto/otp.js';
import type { SimEvent } from '../../areas/cluster/events.js';
import type { SimState } from '../../areas/cluster/state.js';
import type { ApiResponse, Method } from '../../kernel/http/http.js';
import { formatMs } from '../../kernel/clock.js';
import { getPath } from '../../scenario/dotted.js';
import type { World } from '../../world.js';
import { foldEvent, Watch } from '../../check/catalogue.js';
import type { Finding, Observation, ResponseObservation } from '../../areas/monitoring/types.js';
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
}

/** Root key → the cluster it was created on: whose key shares open a keyring (read from a world at genesis). */
export function keyOwnersOf(state: SimState): Map<string, string> {
  const owners = new Map<string, string>();
  for (const c of state.clusters) owners.set(c.storage.keyring.rootKeyHex, c.name);
  return owners;
}

export class Operator implements OperatorPort {
  readonly watch: Watch | null;
  readonly script: ScriptStep[] | null;
  readonly findings: Finding[] = [];
  readonly forbid: ReadonlySet<string>;
  readonly history: readonly SimEvent[];
  private readonly keyOwners: ReadonlyMap<string, string>;
  private readonly counters = new Map<string, number>();
  /** Root tokens generated with sys/generate-root, by cluster, kept while they work there. */
  readonly generatedRoots: Map<string, Ref>;
  private heading = '';
  private commandStart = 0;
  /** Without a Watch: what the current command did, for whoever runs the monitors (the explorer). */
  private responses: ResponseObservation[] = [];
  private states: SimState[] = [];
  private commandLogStart = 0;
  private commandStateStart: SimState;
  /** Without a Watch: the last command's observation, for the monitors. */
  lastObservation: Observation | null = null;
  /** Commands run, requests sent and requests refused: the run's statistics. */
  commands = 0;
  requests = 0;
  refused = 0;

  constructor(
    readonly world: World,
    options: OperatorOptions = {},
  ) {
    this.watch = options.watch === false ? null : new Watch(world);
    this.script = options.record ? [] : null;
    this.forbid = new Set(options.forbid ?? []);
    this.history = options.history ?? [];
    this.keyOwners = options.keyOwners ?? keyOwnersOf(world.state);
    this.generatedRoots = new Map(options.generatedRoots ?? []);
    this.commandStateStart = world.state;
    // Without a Watch, the operator keeps the state after each event itself, as the Watch would.
    if (!this.watch) world.events$.subscribe(() => this.states.push(world.state));
  }

  /** The whole log: the template's genesis, then this world's events. */
  fullLog(): SimEvent[] {
    return [...this.history, ...this.world.log];
  }

  /** A fresh variable name for the scenario file: `westToken`, then `westToken2`, ... */
  private variable(base: string): string {
    const n = (this.counters.get(base) ?? 0) + 1;
    this.counters.set(base, n);
    return n === 1 ? base : `${base}${n}`;
  }

  // -------------------------------------------------------------------------------------------------
  // Commands

  beginCommand(words: string): void {
    this.heading = words;
    this.commandStart = this.script?.length ?? 0;
    this.commandLogStart = this.world.log.length;
    this.commandStateStart = this.world.state;
    this.responses = [];
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
      const events = this.world.log.slice(this.commandLogStart);
      const states = this.states.length === events.length ? this.states : undefined;
      this.lastObservation = { state: this.world.state, before: this.commandStateStart, events, states, responses: this.responses, fold: foldEvent };
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

    const logBefore = this.world.log.length;
    const stateBefore = this.world.state;
    const response: ApiResponse = this.world.request(on, { method, path: realPath, body, token: root?.value });
    this.requests++;
    // The monitors that judge answers (dr-secondary-closed, otp-never-returned, ...) see every request.
    const observed = { cluster: on, request: { method, path: realPath, body }, response, before: stateBefore };
    if (this.watch) this.watch.observeResponse(on, observed.request, response, stateBefore);
    else this.responses.push({ ...observed, after: this.world.state, eventIndex: this.world.log.length - this.commandLogStart });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok) {
      this.refused++;
      if (!options.refusalMayRecord && (this.world.log.length !== logBefore || this.world.state !== stateBefore))
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
    this.world.advance(ms);
    this.script?.push({ name: label, wait: formatMs(ms) });
  }

  partition(a: string, b: string, label: string): void {
    this.world.partition([a, b]);
    this.script?.push({ name: label, partition: [a, b] });
  }

  heal(link: [string, string] | 'all', label: string): void {
    this.world.heal(link);
    this.script?.push({ name: label, heal: link === 'all' ? 'all' : [...link] });
  }

  crash(cluster: string, label: string): void {
    this.world.crash(cluster);
    this.script?.push({ name: label, crash: cluster });
  }

  restart(cluster: string, label: string): void {
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
