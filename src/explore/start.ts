// Where property runs and the explorer start when given `--from SCENARIO`: the world a team's
// scenario builds (its clusters, versions, mounts, namespaces and licences, then the state its steps
// leave), with the monitors that watched it. The scenario runs once, as `replsim run` runs it, and
// must pass: a start that is already broken would blame the random commands for it. Every run forks
// that world, so the scenario's steps cost once per process (a worker thread builds its own).
import { createHash } from 'node:crypto';
import type { MonitorFactory } from '../areas/monitoring/types.js';
import type { SimEvent } from '../areas/core/events.js';
import { Watch } from '../check/catalogue.js';
import { formatScenarioError, loadScenario } from '../scenario/loader.js';
import { problems, runStepWatched, topologyOf } from '../scenario/runner.js';
import type { Scenario } from '../scenario/schema.js';
import { World } from '../world.js';
import { keyOwnersOf, Operator, type OperatorOptions } from './commands/operator.js';
import { MAX_CLUSTERS, MIN_CLUSTERS, modelOfState, type Capabilities, type Model } from '../areas/property/model.js';

/** A scenario to start from, as plain data: what crosses to a worker thread and into a shard file. */
export interface FromScenario {
  /** The file as given (for messages and the exported counterexample's header). */
  file: string;
  /** Its text: every process builds the same start from it. */
  text: string;
}

/** The world a scenario built, ready to be forked by every run. */
export interface ScenarioStart {
  file: string;
  text: string;
  /** The scenario's seed: the world's (the exported counterexample keeps it, so `replsim run` rebuilds the same world). */
  seed: number;
  /** Every cluster of the scenario, in its order. */
  names: string[];
  /** The clusters the commands drive: those with an enterprise licence (the replication API refuses the others). */
  clusters: string[];
  world: World;
  /** Root key (hex) → the cluster whose operators were handed its shares, read at genesis (replication copies keyrings later). */
  keyOwners: Map<string, string>;
  /** The monitors as the scenario left them: each run takes forks, so a finding may need steps of the scenario. */
  monitors: MonitorFactory[];
  /** The scenario's events (genesis included): what comes before each run's own log. */
  history: readonly SimEvent[];
  /** Variable names the scenario saves or builds in: the commands' own saves take other names. */
  variables: Set<string>;
  /** Hazards the scenario itself met (its `expect` allows them): the exported file expects them too. */
  hazards: string[];
}

/** Why a start cannot be built: 2 the file does not load (or cannot be a start), 1 its baseline fails. */
export type StartProblem = { code: 1 | 2; lines: string[] };

/** A short fingerprint of the scenario's text: shard files record it, so merge refuses shards of another file. */
export function fromDigest(from: FromScenario): string {
  return createHash('sha256').update(from.text).digest('hex').slice(0, 16);
}

const built = new Map<string, ScenarioStart>();

/** Loads the scenario, runs its steps and keeps the world they built (once per text in a process). */
export async function buildStart(from: FromScenario): Promise<{ ok: true; start: ScenarioStart } | { ok: false; problem: StartProblem }> {
  const key = `${from.file}\0${from.text}`;
  const known = built.get(key);
  if (known) return { ok: true, start: known };
  const loaded = loadScenario(from.text, from.file);
  if (!loaded.ok) return { ok: false, problem: { code: 2, lines: [...loaded.errors.map(formatScenarioError), `${from.file}: cannot start from it: ${loaded.errors.length} error${loaded.errors.length === 1 ? '' : 's'} in the file`] } };
  const scenario = loaded.scenario;
  if (typeof scenario.expect === 'object' && 'violation' in scenario.expect)
    return { ok: false, problem: { code: 2, lines: [`${from.file}: expects the invariant violation ${scenario.expect.violation}: a world that breaks an invariant cannot be a start (every run would fail on it)`] } };
  const clusters = Object.entries(scenario.clusters).filter(([, c]) => c.license === 'enterprise').map(([n]) => n);
  if (clusters.length < MIN_CLUSTERS || clusters.length > MAX_CLUSTERS)
    return {
      ok: false,
      problem: { code: 2, lines: [`${from.file}: the commands drive ${MIN_CLUSTERS} to ${MAX_CLUSTERS} clusters with an enterprise licence; it has ${clusters.length}${clusters.length ? ` (${clusters.join(', ')})` : ''}`] },
    };
  const world = World.create(topologyOf(scenario), { seed: scenario.seed });
  const keyOwners = keyOwnersOf(world.state);
  const watch = new Watch(world);
  const vars = new Map<string, unknown>(Object.entries(world.variables()));
  const records = [];
  for (let i = 0; i < scenario.steps.length; i++) {
    const record = await runStepWatched(world, watch, scenario.steps[i], i, vars, { locate: loaded.locate });
    records.push(record);
    if (!record.ok) break;
  }
  const found = problems(scenario.expect, records, watch.findings);
  if (found.length > 0)
    return { ok: false, problem: { code: 1, lines: [`${from.file}: its baseline fails: the scenario does not pass as written, so no run starts from it`, ...found.map((p) => `  • ${p.text}`)] } };
  const start: ScenarioStart = {
    file: from.file,
    text: from.text,
    seed: scenario.seed,
    names: Object.keys(scenario.clusters),
    clusters,
    world,
    keyOwners,
    monitors: watch.monitors.map((m) => () => m.fork()),
    history: world.log as SimEvent[],
    variables: new Set([...vars.keys(), ...savedNames(scenario)]),
    hazards: [...new Set(watch.findings.filter((f) => f.kind === 'hazard').map((f) => f.id))],
  };
  if (built.size >= 8) built.clear();
  built.set(key, start);
  return { ok: true, start };
}

/** The start already built for `from` in this process (buildStart first: property runs are synchronous). */
export function startOf(from: FromScenario): ScenarioStart {
  const start = built.get(`${from.file}\0${from.text}`);
  if (!start) throw new Error(`replsim: the start from ${from.file} was not built before the runs`);
  return start;
}

/** Every variable a scenario's steps save, whether or not the run reached them. */
function savedNames(scenario: Scenario): string[] {
  const out: string[] = [];
  for (const s of scenario.steps) {
    if (s.kind === 'request') out.push(...Object.keys(s.save));
    else if (s.kind === 'decode-token' && s.save !== undefined) out.push(s.save);
  }
  return out;
}

/** An operator on a fork of the start's world, its Watch continuing the scenario's monitors. */
export function startOperator(start: ScenarioStart, options: Omit<OperatorOptions, 'history' | 'keyOwners' | 'monitors' | 'variables'> = {}): Operator {
  return new Operator(start.world.fork(), { ...options, history: start.history, keyOwners: start.keyOwners, monitors: start.monitors, variables: start.variables });
}

/** The model of the start: what its world shows, read as facts (modelOfState). */
export function startModel(start: ScenarioStart, caps: Capabilities, safe: boolean): Model {
  return modelOfState(start.world.state, start.clusters, caps, safe);
}
