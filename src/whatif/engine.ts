// `replsim whatif`'s engine: runs a runbook as written (the baseline), lists where each fault could
// be placed in it, then runs the variants — the runbook with faults placed — and judges each one.
// Variants share the run before their first fault: the world (with its monitors and the runbook's
// variables) is forked there, as the explorer forks at each branch, instead of replayed from the
// start. The same file, seed and settings give the same plan, the same variants and the same
// outcomes, whichever part of the plan (--shard) is run.
import type { Finding, MonitorFactory } from '../areas/monitoring/types.js';
import { Watch } from '../check/catalogue.js';
import { SeededRng } from '../kernel/prng.js';
import { runStepWatched, topologyOf, type StepRecord } from '../scenario/runner.js';
import type { RequestStep, Scenario, Step } from '../scenario/schema.js';
import type { Locate } from '../scenario/errors.js';
import { World } from '../world.js';
import { comparePlacements, formatScenarioWait, placedKey, recoveryOf, samePlacement, SLOW_LATENCY_MS, type Fault, type FaultKind, type Placed, type Placement } from './faults.js';
import { settledPicture, stuckReasons, type Picture } from './settle.js';

/** The three outcomes of a variant. */
export type Outcome = 'unsafe' | 'stopped' | 'ok';

/** What a variant did, step by step, as the scenario file that reproduces it will say it. */
export type Action =
  /** A step of the runbook (a wait possibly only in part: `waitMs`). */
  | { original: number; waitMs?: number }
  /** A step whatif inserted: a fault, its recovery, a retried request's first send, a client write. */
  | { inserted: Step; note: string; yaml: Record<string, unknown> }
  /** The checks a stuck variant ends with. */
  | { settle: true; ms: number; yaml: Record<string, unknown>[] };

export interface VariantResult {
  /** The variant's number in the plan, from 1: the same for every shard and worker count. */
  n: number;
  faults: Placed[];
  outcome: Outcome;
  /** Why it is unsafe or stopped (empty when ok). */
  reason: string;
  /** What made it unsafe: a violation, a forbidden hazard, stuck, or replsim's own failure. */
  cause: 'violation' | 'hazard' | 'stuck' | 'error' | 'expectation' | null;
  /** The runbook step (from 0) where it became unsafe or stopped; null when ok. */
  step: number | null;
  findings: { kind: Finding['kind']; id: string; message: string }[];
  /** The steps of the variant as a scenario, up to where it went wrong (the exported file). */
  actions: Action[];
}

export interface Plan {
  /** Every single-fault placement the baseline allows (after pruning), in the order the runbook reaches them. */
  singles: Placed[];
  /** The variants to run, each a list of placed faults in order. */
  variants: Placed[][];
  /** How the pairs were chosen (faults 2): every one, or a seeded sample of --budget of them. */
  pairs: { total: number; mode: 'exhaustive' | 'sampled' | 'none' };
  pruned: Pruned;
}

/** Placements left out, by reason, counted. */
export interface Pruned {
  /** A partition between two nodes that never exchange a message, a crash of a cluster nothing talks to. */
  neverTalk: number;
  /** Offsets inside a wait at which nothing happened since the previous one: the same world. */
  quiet: number;
  /** A read sent twice, a client write with no primary, a clock jump with no token outstanding, a cluster already down, a link already cut. */
  noEffect: number;
  /** The mirror of a placement tried (b|a for a|b; the same two faults in the other order). */
  symmetric: number;
  /** Pairs whose first fault stopped the runbook before the second's placement: the single variant says it all. */
  unreachable: number;
}

export interface BaselineResult {
  ok: boolean;
  /** Why the baseline does not pass (the runbook's first failing step or a finding). */
  reasons: string[];
  steps: number;
  /** The runbook's steps' records (for the report). */
  records: StepRecord[];
  picture: Picture;
}

export interface WhatifSettings {
  faults: 1 | 2;
  kinds: readonly FaultKind[];
  /** Hazards that make a variant unsafe; violations always do. */
  forbid: readonly string[];
  seed: number;
  budget: number;
}

/** How long the world is left to settle after a variant's last step before it is judged stuck (virtual ms). */
export const SETTLE_MS = 60_000;

/** The monitors' findings the runbook's own `expect` allows (a runbook teaching a hazard). */
function expectedIds(expect: Scenario['expect']): Set<string> {
  if (expect === 'pass') return new Set();
  if ('hazard' in expect) return new Set([expect.hazard]);
  if ('hazards' in expect) return new Set(expect.hazards);
  return new Set([expect.violation]);
}

/** A runbook under way: the world, its monitors, the variables saved, where it is, and what it did. */
class Cursor {
  step = 0;
  offsetMs = 0;
  actions: Action[] = [];
  findings: { finding: Finding; step: number }[] = [];
  failed: { step: number; failure: string } | null = null;
  /** Faults to recover after the current step. */
  active: Fault[] = [];
  records: StepRecord[] = [];
  /** Runtime error of the simulator itself. */
  error: string | null = null;

  constructor(
    readonly world: World,
    readonly watch: Watch,
    readonly vars: Map<string, unknown>,
  ) {}

  static start(scenario: Scenario, seed: number): Cursor {
    const world = World.create(topologyOf(scenario), { seed });
    return new Cursor(world, new Watch(world), new Map(Object.entries(world.variables())));
  }

  fork(): Cursor {
    const world = this.world.fork();
    const factories: MonitorFactory[] = this.watch.monitors.map((m) => () => m.fork());
    const c = new Cursor(world, new Watch(world, factories), new Map(this.vars));
    c.step = this.step;
    c.offsetMs = this.offsetMs;
    c.actions = [...this.actions];
    c.findings = [...this.findings];
    c.failed = this.failed;
    c.active = [...this.active];
    c.error = this.error;
    return c;
  }

  get done(): boolean {
    return this.failed !== null || this.error !== null;
  }

  noteFindings(found: Finding[]): void {
    for (const f of found) this.findings.push({ finding: f, step: this.step });
  }
}

/** Runs the runbook, and what it needs to place faults: see `enumerate`. */
export class Whatif {
  readonly steps: readonly Step[];
  private readonly latency: number;
  private readonly allowed: Set<string>;

  constructor(
    readonly scenario: Scenario,
    readonly settings: WhatifSettings,
    private readonly locate?: Locate,
  ) {
    this.steps = scenario.steps;
    this.latency = World.create(topologyOf(scenario), { seed: settings.seed }).state.network.latencyMs;
    this.allowed = expectedIds(scenario.expect);
  }

  /** Runs the baseline and lists every placement of a single fault it allows, with what was pruned. */
  async baseline(): Promise<{ result: BaselineResult; singles: Placed[]; pruned: Pruned }> {
    const c = Cursor.start(this.scenario, this.settings.seed);
    const pruned: Pruned = { neverTalk: 0, quiet: 0, noEffect: 0, symmetric: 0, unreachable: 0 };
    const singles: Placed[] = [];
    await this.learnTalkers();
    const at = (p: Placement) => this.candidates(c, p, pruned, singles);
    for (let i = 0; i < this.steps.length && !c.done; i++) {
      at({ step: i });
      const step = this.steps[i];
      if (step.kind === 'wait') await this.quietOffsets(c, step.ms, pruned, (offsetMs) => at({ step: i, offsetMs }));
      await this.runStep(c);
    }
    if (!c.done) at({ step: this.steps.length });
    const reasons = this.baselineReasons(c);
    const picture = reasons.length === 0 ? settledPicture(c.world.fork(), SETTLE_MS) : { primaries: {}, secondaries: {} };
    return { result: { ok: reasons.length === 0, reasons, steps: this.steps.length, records: c.records, picture }, singles, pruned };
  }

  private baselineReasons(c: Cursor): string[] {
    const out: string[] = [];
    if (c.error) out.push(`replsim failed on the runbook (please report): ${c.error}`);
    if (c.failed) out.push(`step ${c.failed.step + 1}${this.lineOf(c.failed.step)} failed: ${c.failed.failure}`);
    for (const { finding, step } of c.findings) {
      if (this.allowed.has(finding.id)) continue;
      out.push(`step ${step + 1}${this.lineOf(step)}: ${finding.kind} ${finding.id}: ${finding.message}`);
    }
    // A runbook that expects a hazard must still show it, as `replsim run` would say.
    for (const id of this.allowed) if (!c.findings.some((f) => f.finding.id === id)) out.push(`expected ${id} did not arise`);
    return out;
  }

  lineOf(step: number): string {
    const line = this.locate?.(['steps', step]).line;
    return line ? ` (line ${line})` : '';
  }

  /** Runs a whole plain run once to learn who talks to whom (messages) and which clusters the runbook addresses. */
  private talkers: { pairs: Set<string>; clusters: Set<string> } | null = null;

  private async learnTalkers(): Promise<void> {
    const c = Cursor.start(this.scenario, this.settings.seed);
    for (let i = 0; i < this.steps.length && !c.done; i++) await this.runStep(c);
    const pairs = new Set<string>();
    const clusters = new Set<string>();
    for (const m of c.world.messages) {
      pairs.add(m.from < m.to ? `${m.from}|${m.to}` : `${m.to}|${m.from}`);
      clusters.add(m.from);
      clusters.add(m.to);
    }
    for (const s of this.steps) if (s.kind === 'request') clusters.add(s.on);
    this.talkers = { pairs, clusters };
  }

  /** The single faults worth placing at `p` in the baseline's world, appended to `out`; the rest counted as pruned. */
  private candidates(c: Cursor, p: Placement, pruned: Pruned, out: Placed[]): void {
    const talk = this.talkers!;
    const net = c.world.state.network;
    const names = c.world.state.clusters.names;
    const end = p.step >= this.steps.length;
    const inWait = p.offsetMs !== undefined;
    const kinds = new Set(this.settings.kinds);
    if (kinds.has('crash')) {
      for (const cluster of names) {
        if (!talk.clusters.has(cluster)) pruned.neverTalk++;
        else if (net.down[cluster]) pruned.noEffect++;
        else out.push({ placement: p, fault: { kind: 'crash', cluster } });
      }
    }
    // The links between two nodes that talk, each once (b|a mirrors a|b): the link faults' places.
    const links = (nodes: string[], fault: (a: string, b: string) => Fault, noEffect: (key: string) => boolean) => {
      const sorted = [...nodes].sort();
      for (let i = 0; i < sorted.length; i++)
        for (let j = 0; j < sorted.length; j++) {
          if (i === j) continue;
          if (j < i) {
            pruned.symmetric++;
            continue;
          }
          const [a, b] = [sorted[i], sorted[j]];
          const key = `${a}|${b}`;
          if (!talk.pairs.has(key)) pruned.neverTalk++;
          // A fault recovered at the same instant after the last step: nothing could cross the link meanwhile.
          else if (noEffect(key) || end) pruned.noEffect++;
          else out.push({ placement: p, fault: fault(a, b) });
        }
    };
    if (kinds.has('partition')) links([...names, ...Object.keys(c.world.state.stores)], (a, b) => ({ kind: 'partition', a, b }), (key) => net.cut[key] === true);
    // Clusters only: what a cluster sends a store crosses at once (a push is decided when made), so
    // slowing that path changes nothing; a cut link carries nothing to slow.
    if (kinds.has('slow')) links([...names], (a, b) => ({ kind: 'slow', a, b, ms: SLOW_LATENCY_MS }), (key) => net.cut[key] === true || net.slow?.[key] !== undefined);
    if (kinds.has('client-write')) {
      if (primaryOf(c.world) === null) pruned.noEffect++;
      else out.push({ placement: p, fault: { kind: 'client-write' } });
    }
    if (kinds.has('retry') && !end && !inWait) {
      const step = this.steps[p.step];
      if (step.kind === 'request') {
        if (step.method === 'GET' || step.method === 'LIST') pruned.noEffect++;
        else out.push({ placement: p, fault: { kind: 'retry' } });
      }
    }
    if (kinds.has('clock-jump') && !inWait) {
      const ttl = this.outstandingTokenTtl(c, p.step);
      if (ttl === null) pruned.noEffect++;
      else out.push({ placement: p, fault: { kind: 'clock-jump', ms: ttl * 1000 + 1000 } });
    }
  }

  /**
   * The ttl (s) of an activation token saved by an earlier step and used by a later one (the
   * longest, if several), or null when none is outstanding at step `at`.
   */
  private outstandingTokenTtl(c: Cursor, at: number): number | null {
    let ttl: number | null = null;
    for (const r of c.records) {
      const step = this.steps[r.index];
      if (step.kind !== 'request' || r.index >= at) continue;
      const wrap = (r.response?.body as { wrap_info?: { ttl?: unknown } } | undefined)?.wrap_info;
      if (!wrap || typeof wrap.ttl !== 'number') continue;
      for (const [name, path] of Object.entries(step.save)) {
        if (!path.startsWith('wrap_info.token')) continue;
        const used = this.steps.slice(at).some((s) => JSON.stringify(s).includes(`\${${name}}`));
        if (used) ttl = Math.max(ttl ?? 0, wrap.ttl);
      }
    }
    return ttl;
  }

  /**
   * Walks through a wait of `ms` on the latency's grid, calling `at` at each offset where something
   * fell due since the previous one; the offsets in between (and after the world went quiet) are
   * the same world as the one before, and counted as pruned. Leaves the cursor inside the wait.
   */
  private async quietOffsets(c: Cursor, ms: number, pruned: Pruned, at: (offsetMs: number) => void): Promise<void> {
    const grid = this.latency;
    const slots = Math.max(0, Math.ceil(ms / grid) - 1);
    let tried = 0;
    const start = c.world.now - c.offsetMs;
    for (;;) {
      const due = c.world.nextDueAt();
      if (due === null || due - start >= ms) break;
      const next = Math.max(c.offsetMs + grid, Math.ceil((due - start) / grid) * grid);
      if (next >= ms) break;
      this.advanceInWait(c, next);
      at(next);
      tried++;
    }
    pruned.quiet += slots - tried;
  }

  private advanceInWait(c: Cursor, offsetMs: number): void {
    const step = this.steps[c.step];
    if (step.kind !== 'wait') throw new Error('advanceInWait outside a wait');
    const ms = offsetMs - c.offsetMs;
    if (ms <= 0) return;
    c.world.advance(ms);
    c.noteFindings(c.watch.afterStep());
    c.actions.push({ original: c.step, waitMs: ms });
    c.offsetMs = offsetMs;
  }

  /** Runs the cursor's current step (the rest of it, inside a wait), then recovers the faults active during it. */
  private async runStep(c: Cursor): Promise<void> {
    const index = c.step;
    const step = this.steps[index];
    try {
      if (step.kind === 'wait' && c.offsetMs > 0) {
        const rest = step.ms - c.offsetMs;
        c.world.advance(rest);
        c.noteFindings(c.watch.afterStep());
        c.actions.push({ original: index, waitMs: rest });
      } else {
        const record = await runStepWatched(c.world, c.watch, step, index, c.vars, { locate: this.locate });
        c.records.push(record);
        c.noteFindings(record.findings);
        c.actions.push({ original: index });
        if (!record.ok) c.failed = { step: index, failure: record.failure ?? 'failed' };
      }
      for (const f of c.active) this.recover(c, f);
    } catch (e) {
      c.error = e instanceof Error ? e.message : String(e);
    }
    c.active = [];
    c.step = index + 1;
    c.offsetMs = 0;
  }

  private recover(c: Cursor, f: Fault): void {
    const step = recoveryOf(f);
    if (!step) return;
    if (f.kind === 'crash') c.world.restart(f.cluster);
    else if (f.kind === 'partition' || f.kind === 'slow') c.world.heal([f.a, f.b]);
    c.noteFindings(c.watch.afterStep());
    const words = f.kind === 'crash' ? `${f.cluster} restarts` : f.kind === 'partition' ? `the link ${f.a}|${f.b} heals` : f.kind === 'slow' ? `the link ${f.a}|${f.b} is back to its latency` : '';
    c.actions.push({ inserted: step, note: 'recovery', yaml: stepYaml(step, `whatif: ${words}`) });
  }

  /** Moves the cursor to a placement (running the steps before it); false when the runbook stopped first. */
  private async moveTo(c: Cursor, p: Placement): Promise<boolean> {
    while (!c.done && (c.step < p.step || (c.step === p.step && (p.offsetMs ?? 0) > c.offsetMs))) {
      if (c.step === p.step) this.advanceInWait(c, p.offsetMs!);
      else await this.runStep(c);
    }
    return !c.done;
  }

  /** Starts a fault at the cursor's place. */
  private async inject(c: Cursor, f: Fault): Promise<void> {
    const world = c.world;
    try {
      switch (f.kind) {
        case 'crash':
          world.crash(f.cluster);
          c.active.push(f);
          this.insert(c, { kind: 'crash', cluster: f.cluster } as Step, `whatif: ${f.cluster} crashes`);
          return;
        case 'partition':
          world.partition([f.a, f.b]);
          c.active.push(f);
          this.insert(c, { kind: 'partition', groups: [[f.a], [f.b]] } as Step, `whatif: the link ${f.a}|${f.b} is cut`);
          return;
        case 'slow':
          world.slow([f.a, f.b], f.ms);
          c.active.push(f);
          this.insert(c, { kind: 'slow', link: [f.a, f.b], latencyMs: f.ms } as Step, `whatif: the link ${f.a}|${f.b} slows down`);
          return;
        case 'clock-jump':
          world.advance(f.ms);
          this.insert(c, { kind: 'wait', ms: f.ms } as Step, "whatif: the clock jumps past the token's ttl");
          return;
        case 'client-write': {
          const target = primaryOf(world);
          if (!target) return;
          const n = c.actions.filter((a) => 'inserted' in a && a.note === 'client-write').length + 1;
          const step: RequestStep = { kind: 'request', name: `whatif: a client writes to ${target.cluster}, the primary`, method: 'POST', path: target.path + `whatif-${n}`, on: target.cluster, body: { data: { written: n } }, token: `\${${target.tokenOf}.root_token}`, save: {} } as unknown as RequestStep;
          const record = await runStepWatched(world, c.watch, step, c.step, c.vars, {});
          c.noteFindings(record.findings);
          const yaml = stepYaml(step, step.name!);
          yaml.expect = { status: record.response?.status ?? 0 };
          c.actions.push({ inserted: step, note: 'client-write', yaml });
          return;
        }
        case 'retry': {
          const step = this.steps[c.step];
          if (step.kind !== 'request') return;
          const first: RequestStep = { ...step, save: {}, expect: undefined };
          const record = await runStepWatched(world, c.watch, first, c.step, c.vars, {});
          c.noteFindings(record.findings);
          c.actions.push({ inserted: first, note: 'retry', yaml: { retryOf: c.step, status: record.response?.status ?? 0 } });
          return;
        }
      }
    } catch (e) {
      c.error = e instanceof Error ? e.message : String(e);
    }
  }

  private insert(c: Cursor, step: Step, name: string): void {
    c.noteFindings(c.watch.afterStep());
    c.actions.push({ inserted: step, note: step.kind, yaml: stepYaml(step, name) });
  }

  /** Runs the rest of the runbook and judges the variant. */
  private async finish(c: Cursor, faults: Placed[], n: number, picture: Picture): Promise<VariantResult> {
    while (!c.done && c.step < this.steps.length) await this.runStep(c);
    // A fault placed after the last step is recovered at once: what it dropped stays dropped.
    if (!c.done) for (const f of c.active) this.recover(c, f);
    c.active = [];
    c.actions = joinedWaits(c.actions);
    const findings = c.findings.map(({ finding }) => ({ kind: finding.kind, id: finding.id, message: finding.message }));
    const base = { n, faults, findings };
    if (c.error) return { ...base, outcome: 'unsafe', cause: 'error', reason: `replsim failed (please report): ${c.error}`, step: Math.min(c.step, this.steps.length - 1), actions: c.actions };
    const fatal = c.findings.find(({ finding }) => finding.kind === 'violation' || (this.settings.forbid.includes(finding.id) && !this.allowed.has(finding.id)));
    if (fatal) {
      const cut = this.cutAfter(c.actions, fatal.step);
      return { ...base, outcome: 'unsafe', cause: fatal.finding.kind, reason: `${fatal.finding.kind} ${fatal.finding.id}: ${fatal.finding.message}`, step: Math.min(fatal.step, this.steps.length - 1), actions: cut };
    }
    if (c.failed) return { ...base, outcome: 'stopped', cause: 'expectation', reason: `step ${c.failed.step + 1}${this.lineOf(c.failed.step)} failed: ${c.failed.failure}`, step: c.failed.step, actions: c.actions };
    const settled = settledPicture(c.world, SETTLE_MS);
    const stuck = stuckReasons(picture, settled);
    if (stuck.length) {
      const first = faults[0].placement.step;
      return { ...base, outcome: 'unsafe', cause: 'stuck', reason: `stuck: ${stuck.map((s) => s.text).join('; ')}`, step: Math.min(first, this.steps.length - 1), actions: [...c.actions, { settle: true, ms: SETTLE_MS, yaml: stuck.flatMap((s) => s.steps) }] };
    }
    return { ...base, outcome: 'ok', cause: null, reason: '', step: null, actions: c.actions };
  }

  /** The actions up to and including the runbook step where a finding arose (the rest is not needed to show it). */
  private cutAfter(actions: Action[], step: number): Action[] {
    let last = actions.length;
    for (let i = actions.length - 1; i >= 0; i--) {
      const a = actions[i];
      if ('original' in a && a.original > step) last = i;
      else if ('original' in a) break;
    }
    return actions.slice(0, last);
  }

  /** The plan: the single placements, and for --faults 2 every pair (or a seeded sample of --budget of them). */
  plan(singles: Placed[], pruned: Pruned): Plan {
    const variants: Placed[][] = singles.map((s) => [s]);
    if (this.settings.faults === 1) return { singles, variants, pairs: { total: 0, mode: 'none' }, pruned };
    // Pairs in placement order; the same two faults at one placement in the other order mirror one
    // tried, and the same fault again inside its own window changes nothing.
    const pairIndexes: [number, number][] = [];
    for (let i = 0; i < singles.length; i++)
      for (let j = i + 1; j < singles.length; j++) {
        const [a, b] = [singles[i], singles[j]];
        if (a.placement.step === b.placement.step && placedKey({ ...a, placement: b.placement }) === placedKey(b)) {
          pruned.noEffect++;
          continue;
        }
        if (samePlacement(a.placement, b.placement)) pruned.symmetric++;
        pairIndexes.push([i, j]);
      }
    const total = pairIndexes.length;
    let chosen = pairIndexes;
    let mode: Plan['pairs']['mode'] = 'exhaustive';
    if (total > this.settings.budget) {
      mode = 'sampled';
      chosen = sample(pairIndexes, this.settings.budget, this.settings.seed);
    }
    for (const [i, j] of chosen) variants.push([singles[i], singles[j]]);
    // Variants sharing a first fault run one after the other: the run up to it is shared.
    variants.sort((x, y) => comparePlaced(x[0], y[0], singles) || (x.length - y.length) || comparePlaced(x[1], y[1], singles));
    return { singles, variants, pairs: { total, mode }, pruned };
  }

  /**
   * Runs the variants numbered `from` (from 0) to `to` (excluded) of the plan, forking the world at
   * each first fault and, for pairs, again at the second; calls `done` with each result in plan order.
   */
  async run(plan: Plan, picture: Picture, range: { from: number; to: number }, done: (r: VariantResult) => void): Promise<void> {
    const chosen = plan.variants.slice(range.from, range.to).map((faults, i) => ({ faults, n: range.from + i + 1 }));
    const base = Cursor.start(this.scenario, this.settings.seed);
    // Every run stops at every placement of the plan on its way (a wait is taken in the same parts),
    // whichever variants this range holds: the outcomes cannot depend on --shard.
    const stops = uniquePlacements(plan.singles);
    const moveVia = async (c: Cursor, target: Placement): Promise<boolean> => {
      for (const p of stops) {
        if (comparePlacements(p, target) >= 0) break;
        if (comparePlacements(p, { step: c.step, offsetMs: c.offsetMs }) <= 0) continue;
        if (!(await this.moveTo(c, p))) return false;
      }
      return this.moveTo(c, target);
    };
    let i = 0;
    while (i < chosen.length) {
      const first = chosen[i].faults[0];
      let j = i;
      while (j < chosen.length && placedKey(chosen[j].faults[0]) === placedKey(first)) j++;
      if (!(await moveVia(base, first.placement))) throw new Error('the baseline stopped before a placement it listed');
      const c = base.fork();
      await this.inject(c, first.fault);
      const group = chosen.slice(i, j);
      // The single variant (if chosen) first, then the pairs: each second fault forks the first's run.
      const results: VariantResult[] = [];
      const seconds = group.filter((v) => v.faults.length > 1);
      const single = group.find((v) => v.faults.length === 1);
      const singleCursor = single && seconds.length ? c.fork() : c;
      for (const v of seconds) {
        const second = v.faults[1];
        if (!(await moveVia(c, second.placement))) {
          plan.pruned.unreachable++;
          results.push({ ...(await this.finish(c.fork(), v.faults, v.n, picture)) });
          continue;
        }
        const d = c.fork();
        await this.inject(d, second.fault);
        results.push(await this.finish(d, v.faults, v.n, picture));
      }
      if (single) results.push(await this.finish(singleCursor, single.faults, single.n, picture));
      results.sort((a, b) => a.n - b.n);
      for (const r of results) done(r);
      i = j;
    }
  }
}

/** The running primary clients would write to, the replicated KV mount they would write in, and whose root token it holds. */
function primaryOf(world: World): { cluster: string; path: string; tokenOf: string } | null {
  const s = world.state;
  for (const cluster of s.clusters) {
    if (s.network.down[cluster.name]) continue;
    if (cluster.replication.dr.role !== 'primary' && cluster.replication.performance.role !== 'primary') continue;
    const mount = Object.values(cluster.storage.mounts)
      .filter((m) => (m.type === 'kv-v2' || m.type === 'kv-v1') && !m.local && m.namespace === '')
      .sort((a, b) => (a.path < b.path ? -1 : 1))[0];
    if (!mount) continue;
    const tokenOf = Object.keys(s.operators)
      .sort((a, b) => (a === cluster.name ? -1 : b === cluster.name ? 1 : a < b ? -1 : 1))
      .find((name) => cluster.storage.tokens[s.operators[name].rootToken] !== undefined);
    if (!tokenOf) continue;
    return { cluster: cluster.name, path: mount.type === 'kv-v2' ? `${mount.path}data/` : mount.path, tokenOf };
  }
  return null;
}

/** The placements of a list, each once, in order. */
function uniquePlacements(placed: readonly Placed[]): Placement[] {
  const out: Placement[] = [];
  for (const p of [...placed].sort((a, b) => comparePlacements(a.placement, b.placement))) if (!out.length || !samePlacement(out[out.length - 1], p.placement)) out.push(p.placement);
  return out;
}

/**
 * The parts of one wait a run took in turns (it stopped at each placement on its way) joined where
 * no fault came between them: a variant's steps do not depend on where the runs stopped.
 */
export function joinedWaits(actions: readonly Action[]): Action[] {
  const out: Action[] = [];
  for (const a of actions) {
    const prev = out.at(-1);
    if (prev && 'original' in prev && 'original' in a && prev.original === a.original && prev.waitMs !== undefined && a.waitMs !== undefined) out[out.length - 1] = { original: a.original, waitMs: prev.waitMs + a.waitMs };
    else out.push(a);
  }
  return out;
}

function comparePlaced(x: Placed | undefined, y: Placed | undefined, order: Placed[]): number {
  if (!x || !y) return 0;
  return comparePlacements(x.placement, y.placement) || order.indexOf(x) - order.indexOf(y);
}

/** `k` of the items, drawn with the seeded generator (a partial Fisher-Yates), in their original order. */
function sample<T>(items: T[], k: number, seed: number): T[] {
  const rng = new SeededRng(seed);
  const idx = items.map((_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = rng.int(i, idx.length - 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((i) => items[i]);
}

/** An inserted step as a scenario file writes it. */
export function stepYaml(step: Step, name: string): Record<string, unknown> {
  switch (step.kind) {
    case 'crash':
      return { name, crash: step.cluster };
    case 'restart':
      return { name, restart: step.cluster };
    case 'partition':
      return { name, partition: (step.groups as string[][]).flat() };
    case 'slow':
      return { name, slow: { link: [...step.link], latency: formatScenarioWait(step.latencyMs) } };
    case 'heal':
      return { name, heal: step.groups === 'all' ? 'all' : (step.groups as string[][]).flat() };
    case 'wait':
      return { name, wait: formatScenarioWait(step.ms) };
    case 'request': {
      const out: Record<string, unknown> = { name, request: `${step.method} ${step.path}`, on: step.on };
      if (step.token !== 'root') out.token = step.token;
      if (step.body !== undefined) out.body = step.body;
      return out;
    }
    default:
      return { name };
  }
}
