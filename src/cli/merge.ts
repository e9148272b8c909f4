// `replsim merge DIR...`: joins the shard results that `replsim check --shard I/N --out DIR` or
// `replsim explore --shard I/N --out DIR` wrote (src/explore/merge-results.ts), prints the whole
// run's verdict as the unsharded command would, and exits as it would: 0 valid, 1 a finding, 2 misuse
// or inconsistent shards, 3 (explore) a search a limit stopped.
import { join } from 'node:path';
import type { Command } from 'commander';
import { scenarioYaml, writeScenario } from '../explore/export.js';
import { mergeShards, type MergedCheck, type MergedExplore } from '../explore/merge-results.js';
import { EXIT } from './exit-codes.js';
import { oneLine, styleFor, type Style } from '../report/narrate.js';
import { reportCounterexample, replayCommand, type CheckOptions } from './check.js';
import { count } from './progress.js';
import { colourOptions, type Io } from './run.js';
import { publishVerdict } from './ci-out.js';
import { whatifShardFiles } from '../whatif/merge.js';
import { mergeWhatifCommand } from './whatif.js';
import { performance } from 'node:perf_hooks';

export interface MergeOptions {
  out?: string;
  json?: boolean;
  /** A JUnit XML report of the merged verdict. */
  junit?: string;
  color?: boolean;
}

export function registerMerge(program: Command, io: Io, setExit: (code: number) => void): void {
  const command = program
    .command('merge')
    .description('join the results of the shards of one replsim check, explore or whatif run (--shard I/N --out DIR): the verdict, the first counterexample by run order, summed counts')
    .argument('<dir...>', 'folders (searched one level down) or files holding check-shard-I-of-N.json, explore-shard-I-of-N.json or whatif-shard-I-of-N.json')
    .option('--out <dir>', 'write the counterexample to DIR/counterexample.yaml (check) or DIR/trace.yaml (explore)')
    .option('--json', 'print one JSON object with the verdict')
    .option('--junit <file>', 'write a JUnit XML report of the merged verdict');
  colourOptions(command);
  command.action(async (dirs: string[], opts: MergeOptions) => setExit(await mergeCommand(dirs, opts, io)));
}

export async function mergeCommand(dirs: string[], opts: MergeOptions, io: Io): Promise<number> {
  const json = opts.json === true;
  const st = styleFor(io.stdout, io.env, json ? false : opts.color);
  // Shards of a whatif run are joined by whatif's own merge.
  const whatifShards = whatifShardFiles(dirs);
  if (whatifShards.length > 0) return mergeWhatifCommand(whatifShards, opts, io);
  const merged = mergeShards(dirs);
  if (!merged.ok) {
    io.err(`replsim merge: ${merged.message}`);
    return 2;
  }
  const m = merged.merged;
  const started = performance.now();
  const code = m.command === 'check' ? await mergedCheck(m, opts, io, st) : mergedExplore(m, opts, io, st);
  const f = m.finding;
  const verdict = m.command === 'check' ? (f ? 'invalid' : 'valid') : m.verdict;
  const file = f && opts.out ? join(opts.out, m.command === 'check' ? 'counterexample.yaml' : 'trace.yaml') : null;
  const ci = publishVerdict(io, opts, {
    command: 'replsim merge',
    name: `${m.shards} shards of replsim ${m.command} --seed ${m.settings.seed}`,
    verdict,
    ...(f ? { finding: { type: f.id ? `${f.kind} ${f.id}` : f.kind, message: f.message, file } } : verdict === 'unknown' && m.command === 'explore' ? { finding: { type: 'unknown', message: m.stoppedBy.join('; ') } } : {}),
    wallMs: performance.now() - started,
  });
  return Math.max(code, ci);
}

async function mergedCheck(m: MergedCheck, opts: MergeOptions, io: Io, st: Style): Promise<number> {
  const s = m.settings;
  const j = m.joined;
  const found = m.finding;
  // The flags of the unsharded run: what the replay and the scenario's header name.
  const check: CheckOptions = { runs: s.runs, seed: s.seed, steps: s.steps, ...(s.clusters !== null ? { clusters: s.clusters } : {}), forbid: s.forbid, out: opts.out, ...(s.commands !== undefined ? { commands: [s.commands] } : {}), ...(s.from ? { from: s.from.file } : {}) };
  if (opts.json) {
    let file: string | null = null;
    if (found && opts.out) file = writeScenario(opts.out, { ...found.scenario, header: [...(found.scenario.header ?? []), `Replay: npx replsim run ${join(opts.out, 'counterexample.yaml')}`] });
    io.out(
      JSON.stringify({
        type: 'verdict',
        command: 'check',
        verdict: found ? 'invalid' : 'valid',
        shards: m.shards,
        seed: s.seed,
        runs: j.runs,
        commands: j.commands,
        requests: j.requests,
        refused: j.refused,
        hazards: j.hazards,
        violations: j.violations,
        forbidden: s.forbid,
        finding: found
          ? { kind: found.kind, id: found.id ?? null, message: found.message.trim(), run: found.run, clusters: found.clusters, commands: found.words, shrinks: found.shrinks, reproduced: found.reproduced, replay: replayCommand(check, found), file, scenario: scenarioYaml(found.scenario) }
          : null,
      }),
    );
    return found ? 1 : 0;
  }
  io.out(`${st.bold('replsim merge')}: ${m.shards} shard${m.shards === 1 ? '' : 's'} of replsim check --runs ${s.runs} --seed ${s.seed}${s.from ? ` --from ${s.from.file}` : ''}${s.clusters !== null ? ` --clusters ${s.clusters}` : ''} --steps ${s.steps}${s.forbid.length ? ` --forbid ${s.forbid.join(' ')}` : ''}`);
  io.out(`ran ${count(j.runs)} run${j.runs === 1 ? '' : 's'}: ${count(j.commands)} commands, ${count(j.requests)} requests (${count(j.refused)} refused)${found && j.runs < s.runs ? '; the runs after the first failing one are left out, as the unsharded run stops there' : ''}`);
  const hazards = Object.entries(j.hazards);
  io.out(`hazards met: ${hazards.length ? hazards.map(([id, n]) => `${id} ${n}x`).join(', ') : 'none'}`);
  const violated = Object.entries(j.violations);
  io.out(`invariants: ${violated.length === 0 ? 'none violated' : violated.map(([id, n]) => `${id} violated ${n}x`).join(', ')}`);
  if (!found) {
    io.out(st.green(`valid: no invariant violated${s.forbid.length ? ' and no forbidden hazard' : ''} in ${count(j.runs)} runs`));
    return 0;
  }
  await reportCounterexample(found, check, io, st);
  return 1;
}

function mergedExplore(m: MergedExplore, opts: MergeOptions, io: Io, st: Style): number {
  const s = m.settings;
  const f = m.finding;
  let file: string | null = null;
  if (f && opts.out) file = writeScenario(opts.out, { ...f.scenario, header: [...(f.scenario.header ?? []), `Replay: npx replsim run ${join(opts.out, 'trace.yaml')}`] }, 'trace.yaml');
  const code = EXIT[m.verdict];
  if (opts.json) {
    io.out(
      JSON.stringify({
        type: 'verdict',
        command: 'explore',
        verdict: m.verdict,
        shards: m.shards,
        stoppedBy: m.stoppedBy,
        depth: s.depth,
        depthReached: m.depthReached,
        clusters: s.clusters,
        seed: s.seed,
        visited: m.visited,
        distinct: m.distinct,
        roleVectors: { covered: m.roleVectors.covered, total: m.roleVectors.total },
        hazards: m.hazards,
        finding: f ? { kind: f.kind, id: f.id ?? null, message: f.message.trim(), trace: f.trace, reproduced: f.reproduced, shard: m.findingShard, file, scenario: scenarioYaml(f.scenario) } : null,
      }),
    );
    return code;
  }
  io.out(`${st.bold('replsim merge')}: ${m.shards} shard${m.shards === 1 ? '' : 's'} of replsim explore --depth ${s.depth} --clusters ${s.clusters} --seed ${s.seed}${s.forbid.length ? ` --forbid ${s.forbid.join(' ')}` : ''}`);
  io.out(`states visited: ${count(m.visited)}; distinct, summed over the shards (a state two shards reached counts twice): ${count(m.distinct)}; depth reached: ${m.depthReached}`);
  io.out(`DR role combinations reached: ${m.roleVectors.covered} of ${m.roleVectors.total}`);
  const hazards = Object.entries(m.hazards);
  if (hazards.length) io.out(`hazards met (not forbidden): ${hazards.map(([id, c]) => `${id} ${c}x`).join(', ')}`);
  if (m.verdict === 'unknown') {
    io.out(st.yellow(`unknown: ${m.stoppedBy.join('; ')}; nothing found so far, but traces up to depth ${s.depth} were not all explored`));
    return EXIT.unknown;
  }
  if (!f) {
    io.out(st.green(`valid: no invariant violated${s.forbid.length ? ' and no forbidden hazard' : ''} within depth ${s.depth}`));
    return 0;
  }
  io.out(st.red(`invalid: shortest trace to ${f.id ? `${f.kind} ${f.id}` : 'the service answered against the model'} (${f.trace.length} command${f.trace.length === 1 ? '' : 's'}, shard ${m.findingShard}):`));
  f.trace.forEach((w, i) => io.out(`  ${String(i + 1).padStart(2)}. ${w}`));
  io.out(`then: ${oneLine(f.message)}`);
  if (file) {
    io.out(`wrote ${file}`);
    io.out(`replay it with:`);
    io.out(`  npx replsim run ${file}`);
  } else {
    io.out('');
    for (const line of scenarioYaml(f.scenario).trimEnd().split('\n')) io.out(line);
  }
  return 1;
}
