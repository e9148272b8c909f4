// `replsim explore`: bounded exhaustive exploration. Every sequence of operator commands up to a
// depth, breadth first, states deduplicated up to renaming of clusters; the shortest trace to an
// invariant violation or a forbidden hazard is printed (or written with --out) as a scenario file.
// Exit 0 when none is found within the depth, 1 when one is, 2 misuse, 3 when --max-states or
// --time-limit stopped the search first (verdict unknown; exit-codes.ts says why 3).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_CLUSTERS, MIN_CLUSTERS } from '../explore/commands/index.js';
import { explore, type ExploreResult, type ExploreTick } from '../explore/explore.js';
import { scenarioYaml, writeScenario } from '../explore/export.js';
import { oneLine, styleFor } from '../report/narrate.js';
import { EXIT } from './exit-codes.js';
import { HAZARD_IDS, parseDuration } from '../scenario/schema.js';
import { forbiddenHazards, wholeNumber } from './check.js';
import { count, formatWall, perSecond, Ticker } from './progress.js';
import { parseShard, writeShardFile, type Shard } from '../explore/shard.js';
import type { ExploreShardFile } from '../explore/merge-results.js';
import type { HazardId } from '../scenario/schema.js';
import { colourOptions, type Io } from './run.js';
import { publishVerdict } from './ci-out.js';
import { parseCommands, startFromOption, startWords } from './commands-option.js';
import { fromDigest, type ScenarioStart } from '../explore/start.js';

export interface ExploreCommandOptions {
  depth: number;
  /** Required unless --from names a scenario (whose clusters it then is). */
  clusters?: number;
  forbid?: string[];
  seed: number;
  out?: string;
  color?: boolean;
  json?: boolean;
  /** Stop after this many distinct states: verdict unknown. */
  maxStates?: number;
  /** Stop after this much wall time (ms): verdict unknown. */
  timeLimit?: number;
  /** This shard of the search only ("I/N"); its result goes to --out DIR for `replsim merge`. */
  shard?: string;
  /** A JUnit XML report of the verdict. */
  junit?: string;
  /** The command families (see commands-option.ts); weights mean nothing to an exhaustive search. */
  commands?: string[];
  /** A scenario to start from: its clusters and the state its steps build. */
  from?: string;
}

/** How often a progress line is printed while exploring (TLC prints one a minute; a person wants more). */
const PROGRESS_EVERY_MS = 1000;

/** A wall-clock duration with its unit, as scenario files write them (`10s`, `2m`, `1h30m`). */
function timeLimit(v: string): number {
  try {
    const ms = parseDuration(v);
    if (ms <= 0) throw new RangeError('a time limit must be longer than 0');
    return ms;
  } catch (e) {
    throw new InvalidArgumentError(`--time-limit takes a duration with its unit, like 30s, 5m or 1h: ${(e as Error).message}`);
  }
}

export function registerExplore(program: Command, io: Io, setExit: (code: number) => void): void {
  const command = program
    .command('explore')
    .description('explore every sequence of operator commands up to a depth, breadth first, and print the shortest trace to a violation or a forbidden hazard')
    .requiredOption('--depth <d>', 'commands per trace, at most', wholeNumber('--depth', 1, 50))
    .option('--clusters <k>', `clusters in the topology, ${MIN_CLUSTERS} to ${MAX_CLUSTERS} (required without --from)`, wholeNumber('--clusters', MIN_CLUSTERS, MAX_CLUSTERS))
    .option('--forbid <hazard...>', `hazards that count as findings (${HAZARD_IDS.join(', ')}); invariant violations always do`)
    .option('--seed <n>', "the world's seed", wholeNumber('--seed', 0), 1)
    .option('--out <dir>', 'write the shortest trace to DIR/trace.yaml instead of printing it')
    .option('--max-states <n>', 'stop after this many distinct states (verdict unknown, exit 3)', wholeNumber('--max-states', 1))
    .option('--time-limit <duration>', 'stop after this much time, like 30s or 5m (verdict unknown, exit 3)', timeLimit)
    .option('--shard <i/n>', "explore only shard I of N (a CI matrix job): the first level's states are dealt out to the shards; writes the shard's result to --out DIR for replsim merge")
    .option('--json', 'print one JSON object per progress tick, then one with the verdict')
    .option('--junit <file>', 'write a JUnit XML report: one testcase, a <failure> naming the finding (<skipped> when a limit stopped the search)')
    .option('--commands <spec...>', 'the command families explored: NAME, -NAME (or NAME=0), all, safe (never force a promotion, promote only a set with no primary left)')
    .option('--from <scenario>', "explore from the world a scenario builds: its clusters, versions, mounts, namespaces and licences, then the state its steps leave (its baseline must pass)");
  colourOptions(command);
  command.action(async (opts: ExploreCommandOptions) => setExit(await exploreCommand(opts, io)));
}

/** The verdict of a search: a finding is invalid; a search a limit stopped proved nothing (unknown). */
function verdictOf(result: ExploreResult): 'valid' | 'invalid' | 'unknown' {
  if (result.finding) return 'invalid';
  return result.complete ? 'valid' : 'unknown';
}

export async function exploreCommand(opts: ExploreCommandOptions, io: Io): Promise<number> {
  const json = opts.json === true;
  const st = styleFor(io.stdout, io.env, json ? false : opts.color);
  const forbid = forbiddenHazards(opts.forbid);
  if (!forbid.ok) {
    io.err(`replsim explore: ${forbid.message}`);
    return 2;
  }
  if (opts.from === undefined && opts.clusters === undefined) {
    io.err("replsim explore: required option '--clusters <k>' not specified (or --from SCENARIO, whose clusters it then explores)");
    return 2;
  }
  const commands = parseCommands(opts.commands);
  if (!commands.ok) {
    io.err(`replsim explore: ${commands.message}`);
    return 2;
  }
  const mix = commands.mix;
  if (mix.weights && Object.values(mix.weights).some((w) => w > 0)) {
    io.err('replsim explore: --commands NAME=W: explore tries every command of the families chosen, so a weight means nothing to it (0 leaves a family out; weights are for check)');
    return 2;
  }
  let shard: Shard | undefined;
  if (opts.shard !== undefined) {
    const parsed = parseShard(opts.shard);
    if (!parsed.ok) {
      io.err(`replsim explore: ${parsed.message}`);
      return 2;
    }
    if (opts.out === undefined) {
      io.err("replsim explore: --shard needs --out DIR: the shard's result is written there, for replsim merge");
      return 2;
    }
    shard = parsed.shard;
  }
  // The scenario runs once here (exit 2 if it does not load, 1 if it does not pass), before the search.
  let start: ScenarioStart | undefined;
  if (opts.from !== undefined) {
    const started = await startFromOption('explore', opts.from, opts.clusters, io);
    if (!started.ok) return started.code;
    start = started.start;
  }
  const clusters = start ? start.clusters.length : opts.clusters!;
  const topologyFlag = start ? `--from ${start.file}` : `--clusters ${clusters}`;
  const limits = [...(opts.maxStates !== undefined ? [`at most ${count(opts.maxStates)} distinct states`] : []), ...(opts.timeLimit !== undefined ? [`at most ${formatWall(opts.timeLimit)}`] : [])];
  if (!json) {
    io.out(`${st.bold('replsim explore')}: depth ${opts.depth}, ${start ? startWords(start) : `${clusters} clusters, seed ${opts.seed}`}${forbid.ids.length ? `, forbidden: ${forbid.ids.join(', ')}` : ''}${limits.length ? `; ${limits.join(', ')}` : ''}${opts.commands !== undefined ? `; commands: ${mix.words}` : ''}`);
    if (shard) io.out(`shard ${shard.index} of ${shard.count}: the first level's distinct states ${shard.index}, ${shard.index + shard.count}, … are expanded here`);
  }
  const ticker = new Ticker(PROGRESS_EVERY_MS);
  let last: ExploreTick = { depth: 0, visited: 0, distinct: 1, queue: 0 };
  // TLC's progress line: depth, states generated, distinct states, states left on the queue, and the rate.
  const report = (t: ExploreTick) => {
    const elapsed = ticker.elapsedMs();
    const rate = perSecond(t.visited, elapsed);
    if (json) io.out(JSON.stringify({ type: 'progress', ...t, perSecond: rate, elapsedMs: Math.round(elapsed) }));
    // Progress goes to stderr: stdout is the result.
    else io.err(st.dim(`progress ${formatWall(elapsed)}: depth ${t.depth}, ${count(t.visited)} states, ${count(t.distinct)} distinct, ${count(t.queue)} queued, ${count(rate)} states/s`));
  };
  // performance.now() counts from the process's start, so the limit covers start-up too: the whole
  // command, not only the search, stays within it (bar the final lines).
  const deadline = opts.timeLimit;
  const result: ExploreResult = explore({
    depth: opts.depth,
    ...(start ? { start } : { clusters }),
    forbid: forbid.ids,
    ...(mix.families ? { families: mix.families } : {}),
    ...(mix.safe ? { safe: true } : {}),
    seed: opts.seed,
    maxStates: opts.maxStates,
    shard,
    onTick: (t) => {
      last = t;
      if (ticker.due()) report(t);
    },
    shouldStop: deadline === undefined ? undefined : () => performance.now() >= deadline,
    onLevel: json ? undefined : (l) => io.err(st.dim(`  depth ${l.depth} done: ${count(l.distinct)} distinct states, ${count(l.visited)} visited, ${count(l.frontier)} new`)),
  });
  const verdict = verdictOf(result);
  const f = result.finding;
  const stopped = result.stoppedBy === 'limit' ? `the time limit (${formatWall(opts.timeLimit ?? 0)})` : result.stoppedBy === 'max-states' ? `--max-states ${count(opts.maxStates ?? 0)}` : undefined;
  let file: string | null = null;
  const ci = () =>
    publishVerdict(io, opts, {
      command: 'replsim explore',
      name: `--depth ${opts.depth} ${topologyFlag} --seed ${opts.seed}${forbid.ids.length ? ` --forbid ${forbid.ids.join(' ')}` : ''}${opts.commands !== undefined ? ` --commands ${mix.words}` : ''}${shard ? ` --shard ${shard.index}/${shard.count}` : ''}`,
      verdict,
      ...(f ? { finding: { type: f.id ? `${f.kind} ${f.id}` : f.kind, message: `${f.trace.length} commands: ${f.message}`, file } } : verdict === 'unknown' ? { finding: { type: 'unknown', message: `stopped by ${stopped ?? 'a limit'} at depth ${result.depthReached} of ${opts.depth}` } } : {}),
      wallMs: ticker.elapsedMs(),
    });
  if (shard && opts.out) {
    const content: ExploreShardFile = {
      replsim: 'explore-shard',
      version: 2,
      settings: { depth: opts.depth, clusters, seed: opts.seed, forbid: forbid.ids as HazardId[], maxStates: opts.maxStates ?? null, ...(opts.commands !== undefined ? { commands: mix.words } : {}), ...(start ? { from: { file: start.file, digest: fromDigest(start) } } : {}) },
      shard,
      verdict,
      result: {
        visited: result.visited,
        distinct: result.distinct,
        depthReached: result.depthReached,
        complete: result.complete,
        stoppedBy: result.stoppedBy ?? null,
        roleVectors: result.roleVectors,
        hazards: result.hazards,
        finding: f ? (JSON.parse(JSON.stringify({ kind: f.kind, id: f.id, message: f.message, trace: f.trace, reproduced: f.reproduced, scenario: f.scenario })) as ExploreShardFile['result']['finding']) : null,
        states: result.states ?? [],
      },
    };
    const written = writeShardFile(opts.out, 'explore', shard, content);
    if (!json) io.out(`wrote ${written}`);
  } else if (f && opts.out) {
    file = join(opts.out, 'trace.yaml');
    writeScenario(opts.out, { ...f.scenario, header: [...(f.scenario.header ?? []), `Replay: npx replsim run ${file}`] }, 'trace.yaml');
  }

  if (json) {
    io.out(
      JSON.stringify({
        type: 'verdict',
        verdict,
        stoppedBy: result.stoppedBy ?? null,
        depth: opts.depth,
        depthReached: result.depthReached,
        clusters,
        seed: opts.seed,
        visited: result.visited,
        distinct: result.distinct,
        roleVectors: { covered: result.roleVectors.covered, total: result.roleVectors.total },
        hazards: result.hazards,
        wallMs: Math.round(ticker.elapsedMs()),
        finding: f ? { kind: f.kind, id: f.id ?? null, message: f.message.trim(), trace: f.trace, reproduced: f.reproduced, file, scenario: scenarioYaml(f.scenario) } : null,
      }),
    );
    return Math.max(EXIT[verdict], ci());
  }

  if (stopped) report(last);
  io.out(`states visited: ${count(result.visited)}; distinct (up to renaming of clusters): ${count(result.distinct)}; depth reached: ${result.depthReached}; ${formatWall(ticker.elapsedMs())}`);
  io.out(`DR role combinations reached: ${result.roleVectors.covered} of ${result.roleVectors.total}`);
  const hazards = Object.entries(result.hazards);
  if (hazards.length) io.out(`hazards met (not forbidden): ${hazards.map(([id, c]) => `${id} ${c}x`).join(', ')}`);

  if (verdict === 'unknown') {
    io.out(st.yellow(`unknown: stopped by ${stopped ?? 'a limit'} at depth ${result.depthReached} of ${opts.depth}; nothing found so far, but traces up to depth ${opts.depth} were not all explored`));
    return Math.max(EXIT.unknown, ci());
  }
  if (!f) {
    io.out(st.green(`valid: no invariant violated${forbid.ids.length ? ' and no forbidden hazard' : ''} within depth ${opts.depth}`));
    return ci();
  }
  const what = f.id ? `${f.kind} ${f.id}` : 'the service answered against the model';
  io.out(st.red(`invalid: shortest trace to ${what} (${f.trace.length} command${f.trace.length === 1 ? '' : 's'}):`));
  f.trace.forEach((w, i) => io.out(`  ${String(i + 1).padStart(2)}. ${w}`));
  io.out(`then: ${oneLine(f.message)}`);
  if (!f.reproduced) io.out(st.yellow('warning: running the trace again with the catalogue did not give the same finding'));
  if (file) {
    io.out(`wrote ${file} (${f.scenario.steps.length} steps)`);
    io.out('replay it with:');
    io.out(`  npx replsim run ${file}`);
  } else {
    io.out(`as a scenario (${f.scenario.steps.length} steps; --out DIR writes it to DIR/trace.yaml):`);
    io.out('');
    for (const line of scenarioYaml(f.scenario).trimEnd().split('\n')) io.out(line);
  }
  return Math.max(1, ci());
}
