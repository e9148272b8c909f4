// `replsim check`: random model-based exploration. Random sequences of operator commands run on
// topologies of 2 to 5 clusters, the invariant and hazard catalogue watching after each command. On
// an invariant violation (or a hazard named by --forbid) the sequence is shrunk and written as a
// scenario file that `replsim run` replays. Exit 0 clean, 1 a finding, 2 misuse.
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { describeCatalogue } from '../check/catalogue.js';
import { MAX_CLUSTERS, MIN_CLUSTERS } from '../explore/commands/index.js';
import { scenarioYaml, writeScenario, type ScenarioExport } from '../explore/export.js';
import { DEFAULT_STEPS, REPLAY_TOKEN, runProperty } from '../explore/property.js';
import { checkShardContent } from '../explore/merge-results.js';
import type { JoinedRuns, PortableCounterexample, RunSettings } from '../explore/property-runs.js';
import { parseShard, shardRange, writeShardFile, type Shard } from '../explore/shard.js';
import { COMMANDS_PER_DEFAULT_WORKER, defaultWorkers, runOnWorkers } from '../explore/workers.js';
import { oneLine, styleFor, type Style } from '../report/narrate.js';
import { loadScenario } from '../scenario/loader.js';
import { runScenario } from '../scenario/runner.js';
import { didYouMean, HAZARD_IDS, type HazardId } from '../scenario/schema.js';
import { count, formatWall, perSecond, progressMode, StatusLine, Ticker } from './progress.js';
import { colourOptions, type Io } from './run.js';
import { publishVerdict } from './ci-out.js';
import { parseCommands, startFromOption, startWords } from './commands-option.js';
import { fromDigest, type FromScenario } from '../explore/start.js';

export interface CheckOptions {
  runs: number;
  seed: number;
  clusters?: number;
  steps: number;
  forbid?: string[];
  out?: string;
  color?: boolean;
  json?: boolean;
  /** fast-check's counterexample path, as printed after a failure: replays that run alone. */
  replay?: string;
  /** Worker threads (default: one per 250,000 commands, i.e. 5,000 runs of 50 steps, at most one per core but one); results do not depend on it. */
  workers?: number;
  /** This shard's runs only ("I/N"); its result goes to --out DIR for `replsim merge`. */
  shard?: string;
  /** A JUnit XML report of the verdict. */
  junit?: string;
  /** The command families and weights (see commands-option.ts). */
  commands?: string[];
  /** A scenario to start from: its clusters and the state its steps build. */
  from?: string;
}

/** A whole number within bounds, for commander. */
export function wholeNumber(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (v: string) => {
    if (!/^\d+$/.test(v.trim())) throw new InvalidArgumentError(`${flag} takes a whole number, got "${v}"`);
    const n = Number(v);
    // Show what was typed: 99999999999999999999 as a number would print as 100000000000000000000.
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${flag} takes a whole number from ${min} to ${max}, got ${v.trim()}`);
    return n;
  };
}

/** The hazard ids named by --forbid, or the message that says which are valid. */
export function forbiddenHazards(given: string[] | undefined): { ok: true; ids: string[] } | { ok: false; message: string } {
  const ids = (given ?? []).flatMap((g) => g.split(',')).map((g) => g.trim()).filter((g) => g !== '');
  const unknown = ids.filter((id) => !(HAZARD_IDS as readonly string[]).includes(id));
  if (unknown.length === 0) return { ok: true, ids: [...new Set(ids)] };
  const guesses = unknown.map((u) => didYouMean(u, HAZARD_IDS)).filter((g) => g !== undefined);
  const guessed = guesses.length ? `; did you mean ${guesses.map((g) => `"${g}"`).join(', ')}?` : '';
  return { ok: false, message: `unknown hazard ${unknown.map((u) => `"${u}"`).join(', ')}: --forbid takes ${HAZARD_IDS.join(', ')}${guessed}` };
}

export function registerCheck(program: Command, io: Io, setExit: (code: number) => void): void {
  const command = program
    .command('check')
    .description('run random sequences of operator commands and watch every invariant and hazard; shrink a failure into a scenario file')
    .option('--runs <n>', 'command sequences to run', wholeNumber('--runs', 1), 100)
    .option('--seed <n>', "seed of the random sequences and of every world", wholeNumber('--seed', 0), 1)
    .option('--clusters <k>', `clusters per topology, ${MIN_CLUSTERS} to ${MAX_CLUSTERS} (default: each run draws one)`, wholeNumber('--clusters', MIN_CLUSTERS, MAX_CLUSTERS))
    .option('--steps <m>', 'commands per run, at most', wholeNumber('--steps', 1), DEFAULT_STEPS)
    .option('--forbid <hazard...>', `hazards that count as failures (${HAZARD_IDS.join(', ')}); invariant violations always do`)
    .option('--out <dir>', 'write the shrunk counterexample to DIR/counterexample.yaml')
    .option('--workers <n>', `worker threads running the runs (default: one per ${COMMANDS_PER_DEFAULT_WORKER.toLocaleString('en-GB')} commands, i.e. ${(COMMANDS_PER_DEFAULT_WORKER / DEFAULT_STEPS).toLocaleString('en-GB')} runs of ${DEFAULT_STEPS} steps, at most one per core but one); the result is the same for any number`, wholeNumber('--workers', 1, 256))
    .option('--shard <i/n>', "run only shard I of N (a CI matrix job); writes the shard's result to --out DIR for replsim merge")
    .option('--replay <path>', 'replay one failing run: the path printed after a failure (with the same --seed, --clusters, --steps)', replayPath)
    .option('--json', 'print one JSON object per progress tick, then one with the verdict')
    .option('--junit <file>', 'write a JUnit XML report: one testcase, a <failure> naming the finding')
    .option('--commands <spec...>', 'the command families and their weights: NAME, NAME=W (0 leaves it out), -NAME, all, safe (never force a promotion, promote only a set with no primary left)')
    .option('--from <scenario>', "start every run from the world a scenario builds: its clusters, versions, mounts, namespaces and licences, then the state its steps leave (its baseline must pass)");
  colourOptions(command);
  command.action(async (opts: CheckOptions) => setExit(await checkCommand(opts, io)));
}

/** fast-check's counterexample path as `replsim check` prints it (see REPLAY_TOKEN). */
function replayPath(v: string): string {
  if (!REPLAY_TOKEN.test(v.trim())) throw new InvalidArgumentError(`--replay takes what replsim check printed after a failure, like 12:0:3@AAB:a; got "${v}"`);
  return v.trim();
}

export async function checkCommand(opts: CheckOptions, io: Io): Promise<number> {
  const json = opts.json === true;
  const st = styleFor(io.stdout, io.env, json ? false : opts.color);
  const forbid = forbiddenHazards(opts.forbid);
  if (!forbid.ok) {
    io.err(`replsim check: ${forbid.message}`);
    return 2;
  }
  const commands = parseCommands(opts.commands);
  if (!commands.ok) {
    io.err(`replsim check: ${commands.message}`);
    return 2;
  }
  const mix = commands.mix;
  if (opts.shard !== undefined) {
    const parsed = parseShard(opts.shard);
    if (!parsed.ok) {
      io.err(`replsim check: ${parsed.message}`);
      return 2;
    }
  }
  // The scenario runs once here (exit 2 if it does not load, 1 if it does not pass), before any run.
  let from: FromScenario | undefined;
  let topology = opts.clusters === undefined ? `${MIN_CLUSTERS} to ${MAX_CLUSTERS} clusters` : `${opts.clusters} clusters`;
  if (opts.from !== undefined) {
    const started = await startFromOption('check', opts.from, opts.clusters, io);
    if (!started.ok) return started.code;
    from = started.from;
    topology = startWords(started.start);
  }
  if (!json) {
    io.out(`${st.bold('replsim check')}: ${opts.replay ? `replaying run ${opts.replay}` : `${opts.runs} runs`} of up to ${opts.steps} commands on ${topology}, ${from ? 'commands drawn with ' : ''}seed ${opts.seed}`);
    if (forbid.ids.length) io.out(`forbidden hazards: ${forbid.ids.join(', ')}`);
    if (opts.commands !== undefined) io.out(`commands: ${mix.words}`);
  }

  let shard: Shard | undefined;
  if (opts.shard !== undefined) {
    const parsed = parseShard(opts.shard);
    if (!parsed.ok) {
      io.err(`replsim check: ${parsed.message}`);
      return 2;
    }
    if (opts.replay !== undefined) {
      io.err('replsim check: --replay replays one run of the whole run space: give it without --shard');
      return 2;
    }
    if (opts.out === undefined) {
      io.err("replsim check: --shard needs --out DIR: the shard's result is written there, for replsim merge");
      return 2;
    }
    shard = parsed.shard;
  }
  const range = shard ? shardRange(opts.runs, shard) : { from: 0, to: opts.runs };
  if (!json && shard) io.out(`shard ${shard.index} of ${shard.count}: ${range.to > range.from ? `runs ${range.from + 1} to ${range.to}` : 'no runs (fewer runs than shards)'}`);

  const settings: RunSettings = { runs: opts.runs, seed: opts.seed, clusters: opts.clusters, steps: opts.steps, forbid: forbid.ids, ...(from ? { from } : {}), ...(mix.families ? { families: mix.families } : {}), ...(mix.weights ? { weights: mix.weights } : {}), ...(mix.safe ? { safe: true } : {}) };
  const progress = progressReporter(io, range.to - range.from, st, json);
  let result: JoinedRuns;
  try {
    if (opts.replay !== undefined) {
      const r = runProperty({ ...settings, replayPath: opts.replay, onProgress: progress.update });
      const { commands: _commands, ...found } = r.findings[0] ?? { commands: [] };
      result = { seed: r.seed, runs: r.runs, commands: r.commands, requests: r.requests, refused: r.refused, hazards: r.hazards, violations: r.violations, finding: r.findings[0] ? (found as PortableCounterexample) : null };
    } else {
      // A replay runs one run: the workers are for many.
      const { joined } = await runOnWorkers({ settings, range, workers: opts.workers ?? defaultWorkers(range.to - range.from, opts.steps), onProgress: progress.update });
      result = joined;
      if (shard && opts.out) {
        const { seed: _seed, ...counts } = joined;
        const shardSettings = { runs: opts.runs, seed: opts.seed, clusters: opts.clusters ?? null, steps: opts.steps, forbid: forbid.ids as HazardId[], ...(opts.commands !== undefined ? { commands: mix.words } : {}), ...(from ? { from: { file: from.file, digest: fromDigest(from) } } : {}) };
        const file = writeShardFile(opts.out, 'check', shard, checkShardContent(shardSettings, shard, { from: range.from, to: range.to, ...counts }));
        if (!json) io.out(`wrote ${file}`);
      }
    }
  } catch (e) {
    progress.done();
    // fast-check refuses a path that does not lead to a run drawn with these settings.
    if (opts.replay === undefined || !/replay/i.test((e as Error).message)) throw e;
    io.err(`replsim check: --replay ${opts.replay} is not a run of these settings: give the --runs, --seed, --from, --clusters, --steps, --forbid and --commands it was printed with`);
    return 2;
  }
  progress.done();
  const found = result.finding;
  const verdict = found ? 'invalid' : 'valid';
  const counterexample = found && opts.out && !shard ? join(opts.out, 'counterexample.yaml') : null;
  const ci = () =>
    publishVerdict(io, opts, {
      command: 'replsim check',
      name: `--runs ${opts.runs} --seed ${opts.seed} --steps ${opts.steps}${opts.from !== undefined ? ` --from ${opts.from}` : ''}${opts.clusters !== undefined ? ` --clusters ${opts.clusters}` : ''}${forbid.ids.length ? ` --forbid ${forbid.ids.join(' ')}` : ''}${opts.commands !== undefined ? ` --commands ${mix.words}` : ''}${shard ? ` --shard ${shard.index}/${shard.count}` : ''}`,
      verdict,
      ...(found ? { finding: { type: found.id ? `${found.kind} ${found.id}` : found.kind, message: `run ${found.run}: ${found.message}`, file: counterexample } } : {}),
      wallMs: progress.elapsedMs(),
    });

  if (json) {
    let file: string | null = null;
    if (found && opts.out && !shard) file = writeScenario(opts.out, withReplayHeader(found.scenario, join(opts.out, 'counterexample.yaml')));
    io.out(
      JSON.stringify({
        type: 'verdict',
        verdict,
        seed: result.seed,
        runs: result.runs,
        commands: result.commands,
        requests: result.requests,
        refused: result.refused,
        hazards: result.hazards,
        violations: result.violations,
        forbidden: forbid.ids,
        shard: shard ?? null,
        wallMs: Math.round(progress.elapsedMs()),
        finding: found
          ? {
              kind: found.kind,
              id: found.id ?? null,
              message: found.message.trim(),
              run: found.run,
              clusters: found.clusters,
              commands: found.words,
              shrinks: found.shrinks,
              reproduced: found.reproduced,
              replay: replayCommand(opts, found),
              file,
              scenario: scenarioYaml(found.scenario),
            }
          : null,
      }),
    );
    return Math.max(found ? 1 : 0, ci());
  }

  const entries = describeCatalogue();
  const n = count;
  io.out(`ran ${n(result.runs)} run${result.runs === 1 ? '' : 's'}: ${n(result.commands)} commands, ${n(result.requests)} requests (${n(result.refused)} refused), ${formatWall(progress.elapsedMs())}`);
  io.out('hazards met:');
  const width = Math.max(...entries.map((e) => e.id.length));
  for (const e of entries.filter((x) => x.kind === 'hazard')) {
    const tally = result.hazards[e.id] ?? 0;
    const line = `  ${e.id.padEnd(width)} ${String(tally).padStart(6)}${forbid.ids.includes(e.id) ? '  (forbidden)' : ''}`;
    io.out(tally > 0 ? st.yellow(line) : line);
  }
  const invariants = entries.filter((e) => e.kind === 'invariant');
  const violated = Object.entries(result.violations);
  io.out(`invariants: ${invariants.length} checked, ${violated.length === 0 ? 'none violated' : violated.map(([id, c]) => `${id} violated ${c}x`).join(', ')}`);

  if (!found) {
    io.out(st.green(`valid: no invariant violated${forbid.ids.length ? ' and no forbidden hazard' : ''} in ${n(result.runs)} runs`));
    return ci();
  }
  await reportCounterexample(found, shard ? { ...opts, out: undefined } : opts, io, st);
  return Math.max(1, ci());
}

/** The command that replays the shrunk failing run alone (fast-check's path, with the same settings). */
export function replayCommand(opts: CheckOptions, found: PortableCounterexample): string {
  const mix = parseCommands(opts.commands);
  const flags = [`--runs ${opts.runs}`, `--seed ${opts.seed}`, `--steps ${opts.steps}`, ...(opts.from !== undefined ? [`--from ${opts.from}`] : []), ...(opts.clusters !== undefined ? [`--clusters ${opts.clusters}`] : []), ...(opts.forbid?.length ? [`--forbid ${forbiddenList(opts.forbid).join(' ')}`] : []), ...(opts.commands !== undefined && mix.ok ? [`--commands ${mix.mix.words}`] : [])];
  return `npx replsim check ${flags.join(' ')} --replay ${found.replay.path}`;
}

function forbiddenList(given: string[]): string[] {
  const f = forbiddenHazards(given);
  return f.ok ? f.ids : given;
}

export async function reportCounterexample(found: PortableCounterexample, opts: CheckOptions, io: Io, st: Style): Promise<void> {
  const what = found.id ? `${found.kind} ${found.id}` : found.kind === 'mismatch' ? 'the service answered against the model' : 'a check failed';
  io.out(st.red(`invalid: ${what} in run ${found.run}: ${oneLine(found.message)}`));
  io.out(`shrunk to ${found.words.length} command${found.words.length === 1 ? '' : 's'} (${found.shrinks} shrink attempts) on ${found.clusters} clusters:`);
  found.words.forEach((w, i) => io.out(`  ${String(i + 1).padStart(2)}. ${w}`));
  if (!found.reproduced) io.out(st.yellow('warning: running the shrunk sequence alone did not fail again; the scenario may not reproduce it'));
  const steps = found.scenario.steps.length;
  if (opts.out) {
    const file = writeScenario(opts.out, withReplayHeader(found.scenario, join(opts.out, 'counterexample.yaml')));
    io.out(`wrote ${file} (${steps} steps)`);
    const check = await replaysTheSame(file, found);
    if (check) io.out(check);
    io.out('replay it with:');
    io.out(`  npx replsim run ${file}`);
  } else {
    io.out(`the counterexample as a scenario (${steps} steps; --out DIR writes it to DIR/counterexample.yaml):`);
    io.out('');
    for (const line of scenarioYaml(found.scenario).trimEnd().split('\n')) io.out(line);
  }
  io.out(st.dim(`replay the shrunk run in fast-check: ${replayCommand(opts, found)}`));
}

function withReplayHeader(s: ScenarioExport, file: string): ScenarioExport {
  return { ...s, header: [...(s.header ?? []), `Replay: npx replsim run ${file}`] };
}

/** Loads the written file and runs it as `replsim run` would: does it fail with the same finding? */
async function replaysTheSame(file: string, found: PortableCounterexample): Promise<string | null> {
  const { readFileSync } = await import('node:fs');
  const loaded = loadScenario(readFileSync(file, 'utf8'), file);
  if (!loaded.ok) return `warning: the written scenario does not load: ${loaded.errors[0].message}`;
  const run = await runScenario(loaded.scenario);
  // A mismatch (or a failed check) has no finding id: the file carries the model's prediction as an
  // `expect`, so it must fail as a run; a file that passes does not reproduce the counterexample.
  if (!found.id)
    return run.verdict === 'invalid'
      ? `checked: replsim run on it fails (${run.reasons[0] ?? 'invalid'})`
      : `warning: replsim run on it passes: the counterexample does not reproduce from the file (${found.kind})`;
  const same = run.verdict === 'invalid' && run.findings.some((f) => f.id === found.id && f.kind === found.kind);
  return same ? `checked: replsim run on it fails with ${found.kind} ${found.id}` : `warning: replsim run on it does not show ${found.kind} ${found.id} (verdict ${run.verdict})`;
}

/**
 * Progress of the runs: on a terminal a bar with runs/s and the time left, rewritten in place; in a
 * log a line every quarter; with --json one object a second. Shrinking shows its attempts.
 */
export function progressReporter(io: Io, runs: number, st: Style, json = false) {
  // Progress goes to stderr (stdout is the result); --json keeps its progress objects in its stream.
  const progressIo = json ? io : { out: io.err, stdout: io.stderr ?? {} };
  const mode = progressMode(progressIo, json);
  const line = new StatusLine(progressIo, mode);
  const ticker = new Ticker(mode === 'tty' ? 100 : 1000);
  let lastQuarter = 0;
  let shrinking = false;
  return {
    elapsedMs: () => ticker.elapsedMs(),
    update: (p: { phase: 'run' | 'shrink'; done: number; runs: number }) => {
      const elapsed = ticker.elapsedMs();
      const rate = perSecond(p.done, elapsed);
      const left = p.done > 0 && p.done < runs ? formatWall(((runs - p.done) * elapsed) / p.done) : '0s';
      if (mode === 'json') {
        if (!ticker.due()) return;
        io.out(JSON.stringify({ type: 'progress', phase: p.phase, done: p.done, runs, perSecond: p.phase === 'run' ? rate : null, elapsedMs: Math.round(elapsed) }));
        return;
      }
      if (mode === 'tty') {
        if (!ticker.due() && p.done !== runs) return;
        if (p.phase === 'shrink') {
          line.show(st.dim(`shrinking the failing run: ${p.done} attempt${p.done === 1 ? '' : 's'}, ${formatWall(elapsed)}`));
          return;
        }
        const width = 30;
        const filled = Math.round((Math.min(p.done, runs) / runs) * width);
        line.show(st.dim(`[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${count(p.done)}/${count(runs)} runs, ${count(rate)} runs/s, ${left} left`));
        return;
      }
      if (p.phase === 'shrink') {
        if (!shrinking) progressIo.out('a run failed: shrinking it');
        shrinking = true;
        return;
      }
      const quarter = Math.floor((p.done / runs) * 4);
      if (quarter > lastQuarter && p.done < runs) {
        lastQuarter = quarter;
        progressIo.out(`  ${count(p.done)}/${count(runs)} runs, ${count(rate)} runs/s, about ${left} left`);
      }
    },
    done: () => line.clear(),
  };
}
