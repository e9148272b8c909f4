// Runs a loaded scenario against a fresh world: each step in order, its expectation checked, the
// invariant and hazard monitors run after it, and the outcome judged against the file's `expect`.
// The runner stops at the first step that fails: later steps usually depend on it.
import { parseDuration } from '../kernel/clock.js';
import type { RefusalExplanation } from '../kernel/refusal.js';
import { Timeline } from './timeline.js';
import type { StepPicture } from './picture.js';
import { StepSpill, type StepLog } from './step-spill.js';
import { Watch } from '../check/catalogue.js';
import type { Finding } from '../areas/monitoring/types.js';
import type { SimEvent } from '../areas/core/events.js';
import type { SimState } from '../areas/core/state.js';
import { decodeToken } from '../areas/core/crypto/otp.js';
import type { Topology } from '../areas/cluster/genesis.js';
import type { Inspected } from '../areas/core/steps.js';
import { AREA_STEPS } from '../areas.js';
import { World, WorldUsageError } from '../world.js';
import { getPath } from './dotted.js';
import { interpolate, interpolateString } from './interpolate.js';
import { describeMismatch, matchError, matchPartial } from './match.js';
import type { RequestStep, Scenario, ScenarioOfSteps, Step } from './schema.js';
import { formatMs } from '../kernel/clock.js';

/** What happened at one step, for narration, `--json` and `results.json`. */
export interface StepRecord {
  /** Position in the file's steps, from 0; people read it as step index + 1. */
  index: number;
  /** The line of the file the step starts on (from 1), when the runner was given the file's lines. */
  line?: number;
  /** The virtual clock when the step started, and how far the step moved it (ms). */
  virtualAt: number;
  virtualMs: number;
  /** Wall-clock milliseconds the step took, when the caller gave a clock (the CLI, for display). */
  wallMs?: number;
  name?: string;
  kind: Step['kind'];
  /** The step in an operator's words: "POST sys/replication/dr/primary/enable on east". */
  title: string;
  request?: { cluster: string; method: string; path: string; body?: unknown; namespace?: string; token: string };
  response?: { status: number; body: unknown };
  /**
   * The part of the response body the step's `expect` names (`data:` folded into `body.data`), for
   * narration: the fields a step is about are never cut from its line.
   */
  expected?: Record<string, unknown>;
  /** The step's `expect` as the file wrote it (a request's or an inspect's), for the report. */
  expect?: unknown;
  /** The endpoint's summary in the spec's words, when the path matched one. */
  endpoint?: string;
  /** A refused request's registered refusal: its code and the spec rule (id and words). */
  refusal?: RefusalExplanation;
  ok: boolean;
  /** Why the step failed: the expectation that did not hold. */
  failure?: string;
  /** Invariant violations and hazards seen after this step. */
  findings: Finding[];
  /** The world's state before and after (for narration of topology changes). */
  before: SimState;
  after: SimState;
  /** Events the step appended. */
  events: SimEvent[];
  /** An `inspect` step: the store it read, by key, and what the store held. */
  inspected?: Inspected;
  /**
   * The topology after the step and what changed in it, taken as the step ended (picture.ts): the
   * report draws these without folding the step's states again. Kept by runs and sessions; a record
   * made by hand has none.
   */
  picture?: StepPicture;
  /** Variables this step saved. */
  saved: Record<string, unknown>;
  /** The response field each saved variable came from (its last path segment), so narration knows a secret. */
  savedFrom: Record<string, string>;
}

export type Verdict = 'valid' | 'invalid';

export interface RunResult {
  name: string;
  seed: number;
  expect: Scenario['expect'];
  verdict: Verdict;
  /** Why the outcome does not match `expect`, when invalid. */
  reasons: string[];
  /** The same reasons with their kind and step. */
  problems: Problem[];
  /**
   * Every step's record, read back one at a time (kept compact as the run went: step-spill.ts); a
   * reader that keeps them all holds 1.5 KB a step.
   */
  steps: StepLog<StepRecord>;
  /** Steps that were not run because an earlier one failed (0 with keepGoing). */
  skipped: number;
  findings: Finding[];
  invariantsChecked: string[];
  hazardsWatched: string[];
  stateHash: string;
  /** The virtual time the run covered, and the wall time it took when a wall clock was given (ms). */
  virtualMs: number;
  wallMs?: number;
  world: World;
}

export interface RunOptions {
  /** Overrides the file's seed. */
  seed?: number;
  /** Called after each step, as it happens (narration streams). */
  onStep?: (record: StepRecord) => void;
  /** Called with the world once it is created, before the first step (the history is written as it grows). */
  onWorld?: (world: World) => void;
  /** Called with the monitors' watch once it is made (a served scenario's monitors go on watching the session). */
  onWatch?: (watch: Watch) => void;
  /** The line of a key path in the file (the loader's locate), so steps and failures name their line. */
  locate?: (path: readonly (string | number)[]) => { line: number };
  /**
   * A wall clock in milliseconds, for the durations results.json reports. The runner itself never
   * reads one (the world's time is virtual); the CLI passes performance.now.
   */
  wallClock?: () => number;
  /**
   * Run every step even after one fails its expectation (a learner who changed one step sees the rest
   * of the scenario); each failed step is a reason, so the verdict stays invalid.
   */
  keepGoing?: boolean;
}

/** The scenario's clusters as the world's topology. */
export function topologyOf(scenario: Pick<Scenario, 'clusters'>): Topology {
  const topology: Topology = {};
  for (const [name, c] of Object.entries(scenario.clusters)) {
    topology[name] = {
      version: c.version,
      license: c.license,
      keyShares: c.keyShares,
      keyThreshold: c.keyThreshold,
      namespaces: c.namespaces,
      mounts: c.mounts,
      tokens: Object.fromEntries(
        Object.entries(c.tokens).map(([n, t]) => [
          n,
          { namespace: t.namespace, policy: t.policy, policies: t.policies, type: t.type, role: t.role, ttl: t.ttl === undefined ? undefined : Math.round(parseDuration(t.ttl, 's')! / 1000) },
        ]),
      ),
      policies: c.policies,
      roles: c.roles,
      enableUnauthenticatedAccess: c.enableUnauthenticatedAccess,
    };
  }
  return topology;
}

/** Shortens a secret for people: the first characters and an ellipsis, never the whole value. */
export function shorten(secret: string): string {
  return secret.length <= 10 ? secret.slice(0, 3) + '…' : secret.slice(0, 8) + '…';
}

/** A failed interpolation at run time: the loader checks variables statically, so this is rare. */
class StepError extends Error {}

export async function runScenario(scenario: ScenarioOfSteps, options: RunOptions = {}): Promise<RunResult> {
  const seed = options.seed ?? scenario.seed;
  const world = World.create(topologyOf(scenario), { seed });
  options.onWorld?.(world);
  // Each step's states are read from checkpoints and the log, not kept per step (timeline.ts).
  const timeline = new Timeline(world.log);
  timeline.note(world.log.length, world.state);
  // The message history, read again for the report, goes on from the checkpoints (World.lendStates).
  world.lendStates((events) => timeline.checkpointAt(events));
  const watch = new Watch(world);
  options.onWatch?.(watch);
  const vars = new Map<string, unknown>(Object.entries(world.variables()));
  // The records are kept compact as the run goes: a run of many steps holds a few bytes a step, not its records.
  const steps = new StepSpill<StepRecord>(timeline, watch.findings);
  // The steps the outcome is judged by (those that failed or saw a finding), kept as they are: judging
  // from them spares reading every record back.
  const judged: StepRecord[] = [];
  let failed = false;
  const wallStart = options.wallClock?.();

  // The steps are iterated, not indexed: a large file's are read from its text as the run reaches them.
  let index = 0;
  for (const step of scenario.steps) {
    if (failed && options.keepGoing !== true) break;
    const logAt = world.log.length;
    const ran = await runStepWatched(world, watch, step, index++, vars, options);
    // The step's states are kept as checkpoints of the log, read back when asked; its picture is taken now (timeline.ts).
    const record = timeline.keep(ran, logAt, world.log.length, world.state);
    steps.push(record, watch.findings.length - record.findings.length);
    if (!record.ok || record.findings.length > 0) judged.push(record);
    options.onStep?.(record);
    if (!record.ok) failed = true;
  }

  const found = problems(scenario.expect, judged, watch.findings);
  const reasons = found.map((p) => p.text);
  return {
    name: scenario.name,
    seed,
    expect: scenario.expect,
    verdict: reasons.length === 0 ? 'valid' : 'invalid',
    reasons,
    problems: found,
    steps,
    skipped: scenario.steps.length - steps.length,
    findings: watch.findings,
    invariantsChecked: watch.invariantIds,
    hazardsWatched: watch.hazardIds,
    stateHash: world.stateHash(),
    virtualMs: world.now,
    ...(wallStart !== undefined && options.wallClock ? { wallMs: options.wallClock() - wallStart } : {}),
    world,
  };
}

/**
 * Runs one step of a scenario on a world and its watch: the step, its expectation, then the monitors.
 * A failed expectation (or a step the world refuses as misuse) is the record's failure; anything
 * else thrown is the simulator's own failure and propagates.
 */
export async function runStepWatched(world: World, watch: Watch, step: Step, index: number, vars: Map<string, unknown>, options: Pick<RunOptions, 'locate' | 'wallClock'> = {}): Promise<StepRecord> {
  const before = world.state;
  const logAt = world.log.length;
  const virtualAt = world.now;
  const wallAt = options.wallClock?.();
  const line = options.locate?.(['steps', index]).line;
  const record: StepRecord = { index, ...(line ? { line } : {}), name: step.name, kind: step.kind, title: '', virtualAt, virtualMs: 0, ok: true, findings: [], before, after: before, events: [], saved: {}, savedFrom: {} };
  try {
    await runStep(world, step, vars, record);
  } catch (e) {
    if (!(e instanceof StepError || e instanceof WorldUsageError)) throw e;
    record.ok = false;
    record.failure = e.message;
  }
  record.after = world.state;
  record.events = world.log.slice(logAt) as SimEvent[];
  if (record.request && record.response) watch.observeResponse(record.request.cluster, record.request, record.response, before);
  record.findings = watch.afterStep();
  record.virtualMs = world.now - virtualAt;
  if (wallAt !== undefined && options.wallClock) record.wallMs = options.wallClock() - wallAt;
  return record;
}

/** One reason the outcome does not match `expect`, with the step it belongs to when there is one. */
export interface Problem {
  kind: 'step' | 'violation' | 'hazard' | 'expect';
  text: string;
  /** The step that failed, or after which the finding arose (index from 0). */
  step?: StepRecord;
}

/** Why the run does not match the file's `expect` (empty when it does). */
export function judge(expect: Scenario['expect'], steps: Iterable<StepRecord>, findings: Finding[]): string[] {
  return problems(expect, steps, findings).map((p) => p.text);
}

/** judge's reasons, each with its kind and step (for JUnit failures and code-host annotations). */
export function problems(expect: Scenario['expect'], steps: Iterable<StepRecord>, findings: Finding[]): Problem[] {
  const out: Problem[] = [];
  // One pass over the records (they may be read back from a spill): the failed ones, and the step of each finding.
  const stepOf = new Map<Finding, StepRecord>();
  for (const s of steps) {
    // A run stops at its first failed step, unless it keeps going: then every failed step is a reason.
    if (!s.ok) out.push({ kind: 'step', step: s, text: `step ${s.index + 1}${s.line ? ` (line ${s.line})` : ''}, ${s.title}, failed: ${s.failure}` });
    for (const f of s.findings) if (!stepOf.has(f)) stepOf.set(f, s);
  }
  const violations = findings.filter((f) => f.kind === 'violation');
  const hazards = findings.filter((f) => f.kind === 'hazard');
  const unexpected = (f: Finding): Problem => ({ kind: f.kind, step: stepOf.get(f), text: `unexpected ${f.kind} ${f.id}: ${f.message}` });
  if (expect === 'pass') {
    for (const f of [...violations, ...hazards]) out.push(unexpected(f));
  } else if ('hazard' in expect || 'hazards' in expect) {
    const wanted: string[] = 'hazard' in expect ? [expect.hazard] : expect.hazards;
    for (const id of wanted) if (!hazards.some((h) => h.id === id)) out.push({ kind: 'expect', text: `expected hazard ${id} did not arise` });
    for (const f of [...violations, ...hazards.filter((h) => !wanted.includes(h.id))]) out.push(unexpected(f));
  } else {
    if (!violations.some((v) => v.id === expect.violation)) out.push({ kind: 'expect', text: `expected violation of ${expect.violation} did not happen` });
    for (const f of [...violations.filter((v) => v.id !== expect.violation), ...hazards]) out.push(unexpected(f));
  }
  return out;
}

function fill<T>(value: T, vars: Map<string, unknown>, what: string): T {
  const r = interpolate(value, vars);
  if (!r.ok) throw new StepError(`${what}: ${r.message}`);
  return r.value as T;
}

function fillString(value: string, vars: Map<string, unknown>, what: string): string {
  const r = interpolateString(value, vars);
  if (!r.ok) throw new StepError(`${what}: ${r.message}`);
  return r.value;
}

export async function runStep(world: World, step: Step, vars: Map<string, unknown>, record: StepRecord): Promise<void> {
  switch (step.kind) {
    case 'request':
      return runRequest(world, step, vars, record);
    case 'decode-token': {
      record.title = 'decode the encoded token with its OTP';
      const encoded = fillString(step.token, vars, 'decode-token');
      const otp = fillString(step.otp, vars, 'otp');
      let decoded: string;
      try {
        decoded = decodeToken(encoded, otp);
      } catch (e) {
        throw new StepError(`decode-token: ${(e as Error).message}`);
      }
      if (step.save) {
        vars.set(step.save, decoded);
        record.saved[step.save] = decoded;
        record.savedFrom[step.save] = 'token';
      }
      return;
    }
    case 'wait':
      record.title = `wait ${formatMs(step.ms)}`;
      world.advance(step.ms);
      return;
    case 'partition':
      record.title = `partition ${step.groups.map((g) => g.join('+')).join(' | ')}`;
      world.partition(step.groups);
      return;
    case 'slow':
      record.title = `slow ${step.link.join('–')} to ${formatMs(step.latencyMs)}`;
      world.slow(step.link, step.latencyMs);
      return;
    case 'heal':
      if (step.groups === 'all') {
        record.title = 'heal every link';
        world.heal('all');
      } else {
        record.title = `heal ${step.groups.map((g) => g.join('+')).join(' | ')}`;
        const groups = step.groups;
        for (let i = 0; i < groups.length; i++) for (let j = i + 1; j < groups.length; j++) for (const a of groups[i]) for (const b of groups[j]) world.heal([a, b]);
      }
      return;
    case 'crash':
      record.title = `crash ${step.cluster}`;
      world.crash(step.cluster);
      return;
    case 'restart':
      record.title = `restart ${step.cluster}`;
      world.restart(step.cluster);
      return;
    default: {
      const declared = AREA_STEPS.get(step.kind);
      if (!declared) throw new StepError(`no area declares a "${step.kind}" step`);
      record.title = declared.title(step);
      const inspected = world.areaStep(step);
      if (!inspected) return;
      record.inspected = inspected;
      if ('expect' in step && step.expect) {
        record.expect = step.expect;
        const m = matchPartial(fill(step.expect, vars, 'expect'), inspected.contents);
        if (!m.ok) throw new StepError(`store ${inspected.store}: ${describeMismatch(m)}`);
      }
      return;
    }
  }
}

async function runRequest(world: World, step: RequestStep, vars: Map<string, unknown>, record: StepRecord): Promise<void> {
  const path = fillString(step.path, vars, 'path');
  record.title = `${step.method} ${path} on ${step.on}`;
  const body = step.body === undefined ? undefined : fill(step.body, vars, 'body');
  const namespace = step.namespace === undefined ? undefined : fillString(step.namespace, vars, 'namespace');
  let token: string | undefined;
  let tokenLabel = step.token;
  if (step.token === 'none') token = undefined;
  else if (step.token.includes('${')) {
    token = fillString(step.token, vars, 'token');
    tokenLabel = shorten(token);
  } else {
    token = tokenByName(world, step.on, step.token);
  }
  record.request = { cluster: step.on, method: step.method, path, body, namespace, token: tokenLabel };
  record.expected = expectedBody(step);
  if (step.expect !== undefined) record.expect = step.expect;
  const result = await world.sendAsync(step.on, { method: step.method, path, body, token, namespace }, { tokenNames: false });
  record.response = { status: result.response.status, body: result.response.body };
  record.endpoint = result.summary;
  if (result.refusal) record.refusal = result.refusal;

  const mismatch = checkExpectation(step, result.response.status, result.response.body, vars);
  if (mismatch) {
    record.ok = false;
    record.failure = mismatch;
    return;
  }
  for (const [name, at] of Object.entries(step.save)) {
    const value = getPath(result.response.body, at);
    if (value === undefined) {
      record.ok = false;
      record.failure = `save ${name}: the response has nothing at "${at}"`;
      return;
    }
    vars.set(name, value);
    record.saved[name] = value;
    record.savedFrom[name] = at.split('.').pop() ?? at;
  }
}

/** A token named in a step (World.tokenByName says where it is looked up). */
function tokenByName(world: World, on: string, name: string): string {
  let value: string | undefined;
  try {
    value = world.tokenByName(on, name);
  } catch (e) {
    if (e instanceof WorldUsageError) throw new StepError(`${e.message} with "\${...}"`);
    throw e;
  }
  if (value === undefined) throw new StepError(`token "${name}" is not declared on any cluster`);
  return value;
}

/** Why a response does not meet the step's expectation, or null when it does. */
function checkExpectation(step: RequestStep, status: number, body: unknown, vars: Map<string, unknown>): string | null {
  const ex = step.expect ? fill(step.expect, vars, 'expect') : undefined;
  const errs = (body as { errors?: unknown } | null)?.errors;
  const errText = Array.isArray(errs) && errs.length ? `: ${errs.map(String).join('; ')}` : '';
  if (!ex) return status >= 200 && status < 300 ? null : `expected a 2xx answer, got ${status}${errText}`;
  if (ex.status !== undefined && ex.status !== status) return `expected status ${ex.status}, got ${status}${errText}`;
  if (ex.error !== undefined) {
    if (ex.status === undefined && status < 400) return `expected an error, got ${status}`;
    const list = Array.isArray(errs) ? errs.map(String) : [];
    if (!matchError(list, ex.error)) return `expected an error matching ${JSON.stringify(ex.error)}, got ${list.length ? JSON.stringify(list) : 'no errors'}`;
  } else if (ex.status === undefined && !(status >= 200 && status < 300)) {
    return `expected a 2xx answer, got ${status}${errText}`;
  }
  if (ex.body !== undefined) {
    const m = matchPartial(ex.body, body);
    if (!m.ok) return `body: ${describeMismatch(m)}`;
  }
  if (ex.data !== undefined) {
    const m = matchPartial({ data: ex.data }, body);
    if (!m.ok) return `body: ${describeMismatch(m)}`;
  }
  return null;
}

/** The body a request step's `expect` describes: `body`, with `data` as `body.data`. */
function expectedBody(step: RequestStep): Record<string, unknown> | undefined {
  const e = step.expect;
  if (!e || (e.body === undefined && e.data === undefined)) return undefined;
  return { ...(e.body ?? {}), ...(e.data !== undefined ? { data: e.data } : {}) };
}
