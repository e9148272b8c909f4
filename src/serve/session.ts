// A serving session: one world, driven by whoever reaches the listeners. Requests and control
// commands are applied one at a time, in the order they arrive complete, so the world's log stays
// a total order and replays. Before each one the world catches up with its clock (wall-clock.ts),
// and after each one the invariant and hazard monitors run, as the scenario runner does after a
// step. Everything applied is also recorded as scenario steps (recorder.ts) and as step records for
// results.json.
import type { ApiRequest, ApiResponse } from '../kernel/http/http.js';
import { errors, render } from '../kernel/http/http.js';
import { Watch } from '../check/catalogue.js';
import type { Finding, Monitor } from '../areas/monitoring/types.js';
import type { HazardId } from '../areas/core/vocabulary.js';
import type { SimEvent } from '../areas/core/events.js';
import { problems, runStep, shorten, type RunResult, type StepRecord } from '../scenario/runner.js';
import { parseScenario, STEP_ACTIONS, type Scenario, type Step } from '../scenario/schema.js';
import type { AreaStepAction } from '../areas/core/steps.js';
import { WorldUsageError, type World } from '../world.js';
import { AREA_STEPS } from '../areas.js';
import { Recorder, type RawStep, type RecordingBase } from './recorder.js';
import type { RecorderCall } from './journal.js';
import { Timeline } from '../scenario/timeline.js';
import { StepSpill } from '../scenario/step-spill.js';
import type { ServeClock } from './wall-clock.js';

/** What a control command answered: the step as applied, or why it was refused. */
export type ControlAnswer = { ok: true; title: string; now: number; findings: Finding[] } | { ok: false; status: number; error: string };

/** The steps the control listener takes: the clock's, the network's and every area's faults (an inspection answers nothing there). */
export const CONTROL_ACTIONS: readonly string[] = STEP_ACTIONS.filter((a) => a !== 'request' && a !== 'decode-token' && !AREA_STEPS.get(a as AreaStepAction)?.inspects);

export interface SessionOptions {
  world: World;
  clock: ServeClock;
  base: RecordingBase;
  /** The expectation the session is judged against (the served scenario's, or pass). */
  expect: Scenario['expect'];
  /** Steps already run by the scenario given to serve, and what its monitors found. */
  setup?: { steps: Iterable<StepRecord>; findings: Finding[] };
  /** Told of every invariant violation or hazard as it is seen. */
  onFinding?: (f: Finding) => void;
  /**
   * Told of each step once it is applied and recorded, before its client is answered (the history
   * and the journal are written there), with what the recording was told of it.
   */
  onCommitted?: (record: StepRecord, recorded: RecorderCall) => void;
  /** Monitors that were shown the session's steps so far (a resumed session's); fresh ones without. */
  monitors?: Monitor[];
  /** The watch that was shown the served scenario's steps, on this world: its monitors go on watching (instead of `monitors`). */
  watch?: Watch;
  /** A timeline over the world's log that already knows the states of `setup`'s steps (a resumed session's). */
  timeline?: Timeline;
  /** A session resumed from its journal: the recorder's variables when serving began, and what it was told since. */
  resumed?: { builtins: Record<string, string>; namedTokens: Record<string, Record<string, string>>; calls: RecorderCall[] };
}

export class Session {
  readonly world: World;
  readonly recorder: Recorder;
  private readonly watch: Watch;
  private readonly clock: ServeClock;
  /** Step records, kept compact (step-spill.ts). */
  private readonly records: StepSpill<StepRecord>;
  private readonly findings: Finding[];
  /** Virtual time when serving began, and how far `wait` commands moved the world beyond the clock. */
  private readonly startNow: number;
  private pushedAhead = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly clusterNames: string[];

  constructor(private readonly options: SessionOptions) {
    this.world = options.world;
    this.clock = options.clock;
    // A resumed session's monitors go on with what they saw before the restart, a served scenario's
    // with what they saw of its steps (a hazard lasting from the scenario into the session is one finding).
    this.watch = options.watch ?? new Watch(this.world, options.monitors?.map((m) => () => m));
    this.startNow = this.world.now;
    this.findings = [...(options.setup?.findings ?? [])];
    this.clusterNames = [...this.world.state.clusters.names];
    const named: Record<string, Record<string, string>> = {};
    for (const [c, ops] of Object.entries(this.world.state.operators)) named[c] = { ...ops.tokens };
    this.builtins = options.resumed?.builtins ?? this.world.variables();
    this.namedTokens = options.resumed?.namedTokens ?? named;
    this.recorder = new Recorder(options.base, this.builtins, this.namedTokens);
    this.timeline = options.timeline ?? new Timeline(this.world.log);
    this.timeline.note(this.world.log.length, this.world.state);
    // The message history, read again for the report, goes on from the checkpoints (World.lendStates).
    this.world.lendStates((events) => this.timeline.checkpointAt(events));
    // Steps of this timeline (a resumed session's) are kept compact too; a served scenario's as they are.
    const setup = [...(options.setup?.steps ?? [])];
    const own = setup.findIndex((r) => this.timeline.countsOf(r) !== undefined);
    const head = own < 0 ? setup : setup.slice(0, own);
    this.records = new StepSpill(this.timeline, this.findings, head);
    let first = head.reduce((n, r) => n + r.findings.length, 0);
    for (const r of own < 0 ? [] : setup.slice(own)) {
      this.records.push(r, first);
      first += r.findings.length;
    }
    for (const call of options.resumed?.calls ?? []) record(this.recorder, call);
  }

  /** Each step's states, read from checkpoints and the log rather than kept per step. */
  private readonly timeline: Timeline;

  /** The recorder's variables when serving began (the journal keeps them for a resume). */
  readonly builtins: Record<string, string>;
  readonly namedTokens: Record<string, Record<string, string>>;

  /** Requests and commands queued or running. */
  get inFlight(): number {
    return this.pending;
  }

  get clusters(): readonly string[] {
    return this.clusterNames;
  }

  /** Runs `work` after everything queued before it: one at a time, in arrival order. */
  private serial<T>(work: () => Promise<T> | T): Promise<T> {
    this.pending++;
    const run = this.chain.then(work);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => this.pending--);
  }

  /** Resolves once everything queued so far has been applied. */
  drained(): Promise<void> {
    return this.chain.then(() => undefined);
  }

  /** Advances the world to where its clock says it should be, recording the wait. */
  private async catchUp(): Promise<void> {
    const target = this.startNow + this.clock.due() + this.pushedAhead;
    const ms = target - this.world.now;
    if (ms <= 0) return;
    await this.applyStep({ kind: 'wait', ms }, { wait: ms });
  }

  /** Sends a client's request to a cluster, as the scenario runner sends a request step. */
  request(cluster: string, req: ApiRequest): Promise<ApiResponse> {
    return this.serial(async () => {
      await this.catchUp();
      const before = this.world.state;
      const logAt = this.world.log.length;
      let response: ApiResponse;
      let endpoint: string | undefined;
      try {
        const result = await this.watch.sendAsync(cluster, { method: req.method, path: req.path, body: req.body, token: req.token, namespace: req.namespace }, { tokenNames: false });
        response = result.response;
        endpoint = result.summary;
      } catch (e) {
        // A request the world could not handle is replsim's bug: the client gets a 500, the server lives on.
        if (!(e instanceof Error)) throw e;
        const msg = e instanceof WorldUsageError ? e.message : `internal error in replsim (please report): ${e.message}`;
        // Handlers append nothing before they succeed, so the world is as it was.
        return render(errors.internal(msg), () => '');
      }
      const ran: StepRecord = {
        index: this.records.length,
        kind: 'request',
        title: `${req.method} ${req.path} on ${cluster}`,
        virtualAt: before.now,
        virtualMs: 0,
        request: { cluster, method: req.method, path: req.path, body: req.body, namespace: req.namespace, token: this.tokenLabel(cluster, req.token) },
        response: { status: response.status, body: response.body },
        endpoint,
        ok: true,
        findings: [],
        before,
        after: this.world.state,
        events: [],
        saved: {},
        savedFrom: {},
      };
      const record = this.finish(ran, logAt);
      const changed = record.events.length > 0;
      const refused = response.status >= 400 && !changed;
      const unrecordable = whyUnrecordable(req);
      // Requests that changed nothing replay exactly without their step; one that changed the world
      // is listed at the top of the recording, which then cannot replay exactly. (A refused one is a
      // comment line, which needs no body.)
      const call: RecorderCall =
        unrecordable && !refused
          ? changed
            ? { omitted: `${record.title}: ${unrecordable}` }
            : null
          : { request: { cluster, method: req.method, path: req.path, body: req.body, token: req.token, namespace: req.namespace }, status: response.status, body: response.body, info: { endpoint, changed } };
      this.commit(record, call);
      return response;
    });
  }

  /**
   * Applies a control command written as a scenario step (`{ crash: east }`, `{ wait: 10s }`,
   * `{ partition: [east, west] }` …), validated by the scenario schema itself.
   */
  control(raw: unknown): Promise<ControlAnswer> {
    return this.serial(async () => {
      const parsed = this.parseControlStep(raw);
      if ('error' in parsed) return { ok: false as const, status: 400, error: parsed.error };
      await this.catchUp();
      if (parsed.step.kind === 'wait') this.pushedAhead += parsed.step.ms;
      const record = await this.applyStep(parsed.step, raw as RawStep);
      if (!record.ok) return { ok: false as const, status: 400, error: record.failure ?? 'the command failed' };
      return { ok: true as const, title: record.title, now: this.world.now, findings: record.findings };
    });
  }

  /** The world's state for the status page, after catching up with the clock. */
  status(): Promise<{ now: number; steps: number; findings: Finding[] }> {
    return this.serial(async () => {
      await this.catchUp();
      return { now: this.world.now, steps: this.records.length, findings: [...this.findings] };
    });
  }

  private parseControlStep(raw: unknown): { step: Step } | { error: string } {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { error: 'a control command is a JSON object holding one scenario step, like {"crash": "east"}' };
    const action = Object.keys(raw).find((k) => CONTROL_ACTIONS.includes(k));
    if (!action) return { error: `a control command needs one of ${CONTROL_ACTIONS.join(', ')} (requests go to the cluster listeners)` };
    const clusters = Object.fromEntries(this.clusterNames.map((c) => [c, {}]));
    const r = parseScenario({ name: 'control', clusters, steps: [raw] });
    if (!r.success) return { error: r.error.issues.map((i) => `${i.path.filter((p) => p !== 'steps' && p !== 0).join('.') || action}: ${i.message}`).join('; ') };
    return { step: r.data.steps[0] };
  }

  /** A token as results.json shows it: the scenario's name for it (`root`, `east's root`), else shortened. */
  private tokenLabel(cluster: string, token: string | undefined): string {
    if (!token) return 'none';
    const ops = this.world.state.operators;
    for (const [name, value] of Object.entries(ops[cluster]?.tokens ?? {})) if (value === token) return name;
    for (const [other, o] of Object.entries(ops)) for (const [name, value] of Object.entries(o.tokens)) if (value === token) return `${other}'s ${name}`;
    return shorten(token);
  }

  /** Runs a wait or fault step on the world, as the runner does, and records it. */
  private async applyStep(step: Step, raw: RawStep): Promise<StepRecord> {
    const before = this.world.state;
    const logAt = this.world.log.length;
    const record: StepRecord = { index: this.records.length, kind: step.kind, title: '', virtualAt: before.now, virtualMs: 0, ok: true, findings: [], before, after: before, events: [], saved: {}, savedFrom: {} };
    try {
      await runStep(this.world, step, new Map(), record);
    } catch (e) {
      // A fault the world refuses (an unknown sync destination, say) changes nothing and is not recorded.
      if (!(e instanceof WorldUsageError)) throw e;
      record.ok = false;
      record.failure = e.message;
      return record;
    }
    record.after = this.world.state;
    record.virtualMs = this.world.now - record.virtualAt;
    const done = this.finish(record, logAt);
    this.commit(done, step.kind === 'wait' ? { wait: step.ms } : { fault: raw });
    return done;
  }

  /** Tells the recorder of an applied step, then whoever keeps the session on disk. */
  private commit(step: StepRecord, call: RecorderCall): void {
    record(this.recorder, call);
    this.options.onCommitted?.(step, call);
  }

  /** Runs the monitors after a step and keeps its record and picture, its states and events read from the timeline. */
  private finish(ran: StepRecord, logAt: number): StepRecord {
    const record = this.timeline.keep(ran, logAt, this.world.log.length, this.world.state);
    record.findings = this.watch.afterStep();
    this.records.push(record, this.findings.length);
    this.findings.push(...record.findings);
    for (const f of record.findings) this.options.onFinding?.(f);
    return record;
  }

  /** How far the session has gone: steps applied and events logged (the live view asks whether it moved). */
  progress(): string {
    return `${this.records.length}.${this.world.log.length}`;
  }

  /** The session as a run result, for results.json and history.jsonl (as `replsim run --out` writes them). */
  result(): RunResult {
    const steps = this.records;
    const found = problems(this.options.expect, steps, this.findings);
    const reasons = found.map((p) => p.text);
    return {
      name: this.options.base.name,
      seed: this.options.base.seed,
      expect: this.options.expect,
      verdict: reasons.length === 0 ? 'valid' : 'invalid',
      reasons,
      problems: found,
      steps,
      skipped: 0,
      findings: this.findings,
      invariantsChecked: this.watch.invariantIds,
      hazardsWatched: this.watch.hazardIds,
      stateHash: this.world.stateHash(),
      virtualMs: this.world.now,
      world: this.world,
    };
  }

  /** The recording as a format-1 scenario, expecting the verdict the session had. */
  scenarioYaml(): string {
    return this.recorder.yaml(this.recordedExpect());
  }

  /**
   * What the recording expects: the hazards that arose in the session (so its replay passes as the
   * session went), else the served scenario's expectation. Violations are not expected away: they
   * mean the simulator is wrong, and the replay fails as the session did.
   */
  recordedExpect(): Scenario['expect'] {
    const base = this.options.expect;
    if (this.findings.some((f) => f.kind === 'violation') || (typeof base === 'object' && 'violation' in base)) return base;
    const hazards = [...new Set(this.findings.filter((f) => f.kind === 'hazard').map((f) => f.id))] as HazardId[];
    if (hazards.length === 0) return base;
    return hazards.length === 1 ? { hazard: hazards[0] } : { hazards };
  }
}

/** Tells a recorder what it was told of one step (live, or again from a journal on resume). */
export function record(recorder: Recorder, call: RecorderCall): void {
  if (call === null) return;
  if ('request' in call) recorder.request(call.request, call.status, call.body, call.info);
  else if ('wait' in call) recorder.wait(call.wait);
  else if ('fault' in call) recorder.fault(call.fault);
  else recorder.omitted(call.omitted);
}

/** Why a request cannot be written as a format-1 request step, or null when it can. */
function whyUnrecordable(req: ApiRequest): string | null {
  if (req.body !== undefined && req.body !== null && (typeof req.body !== 'object' || Array.isArray(req.body))) return 'its body is not a JSON object';
  // Format 1 has no escape for a literal "${": the replay would read it as a variable.
  if (/\$\{/.test(req.path) || (req.namespace ?? '').includes('${') || JSON.stringify(req.body ?? null).includes('${')) return 'it contains a literal "${", which a scenario file reads as a variable';
  return null;
}
