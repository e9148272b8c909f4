// Model-based property runs with fast-check: random sequences of operator commands on topologies of
// 2 to 5 clusters, the catalogue run after every command. A run fails on an invariant violation, on
// a hazard the caller forbids, or where the service answered against the model. fast-check then
// shrinks the sequence, and the shrunk sequence is run once more with the operator writing down
// every step, which gives a scenario file that replays the finding.
import fc from 'fast-check';
import prand from 'pure-rand';
import type { OperatorCommand } from '../areas/property/command.js';
import {
  capabilitiesFor,
  clusterNames,
  commandArbitraries,
  freshOperator,
  initialModel,
  MAX_CLUSTERS,
  MIN_CLUSTERS,
  ModelMismatch,
  type Capabilities,
  type Model,
} from './commands/index.js';
import { FindingError, type Operator, type ScriptStep } from './commands/operator.js';
import { withModelExpectation, type ScenarioExport } from './export.js';
import type { Finding } from '../areas/monitoring/types.js';
import { startModel, startOf, startOperator, type FromScenario, type ScenarioStart } from './start.js';

export const DEFAULT_STEPS = 50;
/** Commands drawn per command a run may run: about half are skipped (their precondition fails). */
const DRAWN_PER_STEP = 4;

/** The commands of a sequence until `steps` of them ran (fast-check marks those it ran). */
function* upTo<C>(steps: number, cmds: Iterable<C>): Generator<C> {
  let ran = 0;
  for (const c of cmds) {
    if (ran >= steps) return;
    yield c;
    if ((c as { hasRan?: boolean }).hasRan) ran++;
  }
}

export interface PropertyOptions {
  /** Random command sequences to run (fast-check's numRuns). */
  runs: number;
  /** fast-check's seed, and the seed of every world (default 1). */
  seed?: number;
  /** A fixed number of clusters (2 to 5); by default each run draws one. */
  clusters?: number;
  /** At most this many commands run per sequence (default 50); fast-check draws up to 4 times as many, as some are skipped. */
  steps?: number;
  /** Hazard ids that fail a run; invariant violations always do. */
  forbid?: readonly string[];
  /** Safe runbooks only: never `force`, promote only once the set has no primary (demote first). */
  safe?: boolean;
  /** Shrink a failing sequence (default true). */
  shrink?: boolean;
  /** Narrow what the commands drive (`kinds: ['dr']`); never wider than what the API answers. */
  capabilities?: Partial<Capabilities>;
  /** Only these command families (default all). */
  families?: readonly string[];
  /** Weights for some families instead of their own (0 leaves one out). */
  weights?: Readonly<Record<string, number>>;
  /** Runs after each run's commands; throw to fail the run (quiet-time and replay checks go here). */
  afterRun?: (op: Operator, model: Model) => void;
  /**
   * Replay one run: fast-check's counterexample path (`--replay` in `replsim check`, printed after a
   * failure), with the same seed, clusters and steps, instead of drawing new runs.
   */
  replayPath?: string;
  /**
   * Run only the runs of indexes `from` (counted from 0) to `to` (excluded) of the `runs`: each
   * draws exactly what it draws in the whole run (see runsFrom), so ranges run on worker threads or
   * CI shards and joined by run order give the whole run's result.
   */
  range?: { from: number; to: number };
  /**
   * Start every run from the world a scenario built (`--from`): its clusters, then its steps' state;
   * built first with buildStart (start.ts). The topology is the scenario's: `clusters` must be its count or absent.
   */
  from?: FromScenario;
  /** Called after every run, then after every shrink attempt. */
  onProgress?: (p: { phase: 'run' | 'shrink'; done: number; runs: number }) => void;
}

/** A failing sequence, shrunk, with the scenario that replays it. */
export interface Counterexample {
  /** What failed: an invariant, a forbidden hazard, the model's prediction, or a check of `afterRun`. */
  kind: 'violation' | 'hazard' | 'mismatch' | 'error';
  id?: string;
  message: string;
  finding?: Finding;
  clusters: number;
  /** The world's seed. */
  seed: number;
  /** The commands that ran, the last one failing. */
  commands: OperatorCommand[];
  /** Those commands in an operator's words. */
  words: string[];
  /** The run (from 1) where the property first failed, and the shrink attempts after it. */
  run: number;
  shrinks: number;
  /** What replays it in fast-check: `fc.check(..., { seed, path })`. */
  replay: { seed: number; path: string };
  /** Whether running the shrunk sequence again, alone, failed the same way. */
  reproduced: boolean;
  scenario: ScenarioExport;
}

/** What a set of runs counted: the same fields for one process, a range of runs, and joined ranges. */
export interface RunCounts {
  /** Runs completed (the failing one included). */
  runs: number;
  /** Commands run, requests sent and requests refused, over those runs. */
  commands: number;
  requests: number;
  refused: number;
  /** Hazards met, per id (occurrences). */
  hazards: Record<string, number>;
  /** Invariant violations met, per id. */
  violations: Record<string, number>;
}

export interface PropertyResult extends RunCounts {
  seed: number;
  /** At most one: fast-check stops at the first failing run. */
  findings: Counterexample[];
}

function classify(error: unknown): Pick<Counterexample, 'kind' | 'id' | 'message' | 'finding'> {
  if (error instanceof FindingError) return { kind: error.finding.kind, id: error.finding.id, message: error.finding.message, finding: error.finding };
  if (error instanceof ModelMismatch) return { kind: 'mismatch', message: error.message };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** Runs random command sequences; on a failure, shrinks it and exports it as a scenario. */
export function runProperty(options: PropertyOptions): PropertyResult {
  const seed = options.seed ?? 1;
  const steps = options.steps ?? DEFAULT_STEPS;
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError(`runs must be a whole number of at least 1, not ${options.runs}`);
  if (!Number.isInteger(steps) || steps < 1) throw new RangeError(`steps must be a whole number of at least 1, not ${steps}`);
  const start = options.from ? startOf(options.from) : undefined;
  if (start && options.clusters !== undefined && options.clusters !== start.clusters.length)
    throw new RangeError(`${start.file} drives ${start.clusters.length} clusters (${start.clusters.join(', ')}), not ${options.clusters}`);
  if (options.clusters !== undefined && !start) clusterNames(options.clusters);
  const from = options.range?.from ?? 0;
  const to = options.range?.to ?? options.runs;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > options.runs) throw new RangeError(`range must be whole run indexes with 0 <= from < to <= ${options.runs}, not ${from} to ${to}`);
  if (options.replayPath !== undefined && options.range !== undefined) throw new RangeError('a replay runs one run of the whole run space: give no range');
  const caps = capabilitiesFor(options.capabilities);
  const forbid = options.forbid ?? [];
  const safe = options.safe ?? false;

  const kArb = start ? fc.constant(start.clusters.length) : options.clusters !== undefined ? fc.constant(options.clusters) : fc.integer({ min: MIN_CLUSTERS, max: MAX_CLUSTERS });
  // fast-check's default size gives sequences too short for failover chains. A generated command
  // whose precondition fails is skipped, so more are drawn than run: a run stops once `steps` ran.
  // --replay gives fast-check's run path and the commands' own replay path (which commands ran, for
  // their shrinking), joined by "@": both are needed to walk back to the shrunk run.
  const [runPath, commandsPath] = options.replayPath === undefined ? [undefined, undefined] : splitReplay(options.replayPath);
  const arb = fc.tuple(
    kArb,
    fc.commands(commandArbitraries(caps, options.families, options.weights), { maxCommands: steps * DRAWN_PER_STEP, size: 'max', ...(commandsPath !== undefined ? { replayPath: commandsPath } : {}) }),
  );

  const result: PropertyResult = { seed, runs: 0, commands: 0, requests: 0, refused: 0, hazards: {}, violations: {}, findings: [] };
  let failed = false;
  let shrinks = 0;

  const property = fc.property(arb, ([k, cmds]) => {
    const counting = !failed;
    const op = start ? startOperator(start, { forbid }) : freshOperator(k, seed, { forbid });
    try {
      const model = start ? startModel(start, caps, safe) : initialModel(clusterNames(k), caps, safe);
      fc.modelRun(() => ({ model, real: op }), upTo(steps, cmds));
      options.afterRun?.(op, model);
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      if (counting) {
        result.runs++;
        result.commands += op.commands;
        result.requests += op.requests;
        result.refused += op.refused;
        for (const f of op.findings) {
          const tally = f.kind === 'hazard' ? result.hazards : result.violations;
          tally[f.id] = (tally[f.id] ?? 0) + 1;
        }
        options.onProgress?.({ phase: 'run', done: result.runs, runs: to - from });
      } else {
        shrinks++;
        options.onProgress?.({ phase: 'shrink', done: shrinks, runs: to - from });
      }
    }
  });

  const settings = { numRuns: to - from, seed, endOnFailure: options.shrink === false || runPath !== undefined, ...(runPath !== undefined ? { path: runPath } : {}) };
  const details = from === 0 ? fc.check(property, settings) : fc.check(runsFrom(property, from), { ...settings, randomType: jumpedXorshift(from) });
  if (!details.failed) return result;
  // A failure without a counterexample is fast-check's own error (never a finding of ours).
  if (!details.counterexample) throw details.errorInstance ?? new Error(`fast-check stopped without a counterexample after ${details.numRuns} runs`);

  const [[k, cmds]] = details.counterexample;
  // fast-check hands back its wrappers; the commands are inside.
  const commands = [...cmds].map((c) => ((c as unknown as { cmd?: OperatorCommand }).cmd ?? c) as OperatorCommand);
  const replayed = recordRun(k, seed, commands, { forbid, safe, caps, steps, afterRun: options.afterRun, start });
  const cause = classify(replayed.error ?? details.errorInstance);
  const names = start ? start.clusters : clusterNames(k);
  const worldSeed = start ? start.seed : seed;
  const words = replayed.ran.map((c) => c.toString());
  result.findings.push({
    ...cause,
    clusters: k,
    seed: worldSeed,
    commands: replayed.ran,
    words,
    run: from + result.runs,
    shrinks,
    replay: { seed: details.seed, path: replayToken(globalPath(details.counterexamplePath ?? '', from), cmds) },
    reproduced: replayed.error !== undefined,
    scenario: {
      name: `counterexample: ${cause.id ? `${cause.kind} ${cause.id}` : cause.kind}`,
      description: [
        `Found by replsim check ${checkFlags(options)}, shrunk to ${words.length} command${words.length === 1 ? '' : 's'} on ${names.join(', ')}${start ? `, after the steps of ${start.file}` : ''}:`,
        ...words.map((w, i) => `  ${i + 1}. ${w}`),
        `Then: ${cause.id ? `${cause.kind} ${cause.id}: ` : ''}${cause.message}`,
        cause.kind === 'mismatch'
          ? 'Where the service answered against the model, the step expects what the model predicted, so it fails until the cause is fixed.'
          : 'It expects to pass, so it fails until the cause is fixed.',
      ].join('\n'),
      seed: worldSeed,
      clusters: names,
      steps: withModelExpectation(replayed.steps, replayed.error instanceof ModelMismatch ? replayed.error.expected : undefined),
      hazards: startHazards(start, unforbiddenHazards(replayed.operator.findings, forbid)),
      ...(start ? { from: { file: start.file, text: start.text } } : {}),
      header: [`Counterexample found by replsim check ${checkFlags(options)}; replay the shrunk run alone with: replsim check ${checkFlags(options)} --replay ${replayToken(globalPath(details.counterexamplePath ?? '', from), cmds)}`],
    },
  });
  return result;
}

/** The hazards a run met that were not forbidden, each once, in the order met. */
export function unforbiddenHazards(findings: readonly { kind: string; id: string }[], forbid: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of findings) if (f.kind === 'hazard' && !forbid.includes(f.id) && !out.includes(f.id)) out.push(f.id);
  return out;
}

/** The hazards an exported file expects: those its start's scenario met (its own `expect` allowed them), then the run's. */
export function startHazards(start: ScenarioStart | undefined, hazards: string[]): string[] {
  return start ? [...new Set([...start.hazards, ...hazards])] : hazards;
}

/**
 * fast-check draws run i (from 0) with its xorshift128+ generator jumped i + 1 times from the seed,
 * and biases it by i (Tosser.ts, runIdToFrequency in fast-check 4). A check that starts at run
 * `from` therefore gets a generator already jumped `from` times (pure-rand's xorshift128plus is the
 * same algorithm as fast-check's default, checked by test/explore/workers.test.ts) and a property
 * whose run ids are shifted by `from`: its run j is the whole run's run from + j, value for value.
 */
function runsFrom<T>(property: fc.IRawProperty<T, false>, from: number): fc.IRawProperty<T, false> {
  return {
    isAsync: () => property.isAsync(),
    generate: (mrng, runId) => property.generate(mrng, runId === undefined ? undefined : runId + from),
    shrink: (value) => property.shrink(value),
    run: (v) => property.run(v),
    runBeforeEach: () => property.runBeforeEach(),
    runAfterEach: () => property.runAfterEach(),
  };
}

/** What fast-check's `randomType` takes as a function: a seed to a generator. */
type RandomFor = Extract<NonNullable<fc.Parameters<unknown>['randomType']>, (seed: number) => unknown>;

/** fast-check's default generator for `seed`, jumped `from` times, in the mutable form fast-check 4 takes. */
function jumpedXorshift(from: number): RandomFor {
  return (seed) => mutable(jumped(seed, from));
}

/**
 * The last generator jumped, by seed and jumps. A worker thread is handed chunks of runs in run
 * order: each starts from the last one's generator instead of from the seed, so the jumps of a long
 * run cost O(runs) in all rather than O(runs) per chunk (a jump is ~1 µs: at run 15,000 a chunk of 25
 * runs spent some 12 ms on them, a fifth of its work or more). Jumping is deterministic, so the
 * generator is the same either way.
 */
let lastJumped: { seed: number; jumps: number; g: prand.RandomGenerator } | undefined;

function jumped(seed: number, jumps: number): prand.RandomGenerator {
  const known = lastJumped !== undefined && lastJumped.seed === seed && lastJumped.jumps <= jumps ? lastJumped : undefined;
  const g = known ? known.g.clone() : prand.xorshift128plus(seed);
  for (let i = known ? known.jumps : 0; i < jumps; i++) jump(g);
  lastJumped = { seed, jumps, g: g.clone() };
  return g;
}

function jump(g: prand.RandomGenerator): void {
  if (!g.unsafeJump) throw new Error('pure-rand xorshift128plus lost its jump');
  g.unsafeJump();
}

function mutable(g: prand.RandomGenerator): ReturnType<RandomFor> {
  return { clone: () => mutable(g.clone()), next: () => g.unsafeNext(), jump: () => jump(g), getState: () => g.getState?.() ?? [] } as ReturnType<RandomFor>;
}

/** A counterexample path of a check started at run `from`, as a path of the whole run (its first segment is the run). */
function globalPath(path: string, from: number): string {
  if (from === 0 || path === '') return path;
  const [run, ...rest] = path.split(':');
  return [String(Number(run) + from), ...rest].join(':');
}

/** What `--replay` takes: fast-check's run path, then "@" and the commands' replay path when they have one. */
function replayToken(runPath: string, cmds: unknown): string {
  const commands = /replayPath="([^"]*)"/.exec(fc.stringify(cmds))?.[1];
  return commands ? `${runPath}@${commands}` : runPath;
}

/** A `--replay` token as replayToken writes it: digits and colons, optionally "@" and base-64 letters with a colon. */
export const REPLAY_TOKEN = /^\d+(:\d+)*(@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/;

function splitReplay(token: string): [string, string | undefined] {
  const at = token.indexOf('@');
  return at < 0 ? [token, undefined] : [token.slice(0, at), token.slice(at + 1)];
}

/** The `replsim check` flags that reproduce a property run. */
function checkFlags(o: PropertyOptions): string {
  const flags = [`--runs ${o.runs}`, `--seed ${o.seed ?? 1}`];
  if (o.from) flags.push(`--from ${o.from.file}`);
  if (o.clusters !== undefined) flags.push(`--clusters ${o.clusters}`);
  if (o.steps !== undefined && o.steps !== DEFAULT_STEPS) flags.push(`--steps ${o.steps}`);
  if (o.forbid?.length) flags.push(`--forbid ${o.forbid.join(' ')}`);
  if (o.safe) flags.push('(safe runbooks)');
  return flags.join(' ');
}

export interface RecordedRun {
  /** The commands whose check passed, in order (the last one failed when `error` is set). */
  ran: OperatorCommand[];
  steps: ScriptStep[];
  error?: unknown;
  operator: Operator;
  model: Model;
}

/** Runs a command sequence on a fresh world (or a scenario's start) with the operator writing down every step. */
export function recordRun(
  k: number,
  seed: number,
  commands: readonly OperatorCommand[],
  options: { forbid?: readonly string[]; safe?: boolean; caps?: Capabilities; steps?: number; afterRun?: PropertyOptions['afterRun']; start?: ScenarioStart } = {},
): RecordedRun {
  const caps = options.caps ?? capabilitiesFor();
  const start = options.start;
  const op = start ? startOperator(start, { forbid: options.forbid, record: true }) : freshOperator(k, seed, { forbid: options.forbid, record: true });
  const model = start ? startModel(start, caps, options.safe ?? false) : initialModel(clusterNames(k), caps, options.safe ?? false);
  const ran: OperatorCommand[] = [];
  let error: unknown;
  try {
    for (const c of commands) {
      if (ran.length >= (options.steps ?? Infinity)) break;
      if (!c.check(model)) continue;
      ran.push(c);
      c.run(model, op);
    }
    options.afterRun?.(op, model);
  } catch (e) {
    error = e;
  }
  return { ran, steps: op.script ?? [], error, operator: op, model };
}
