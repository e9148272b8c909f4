// `replsim check`: random model-based exploration. Random sequences of operator commands run on
// topologies of 2 to 5 clusters, the invariant and hazard catalogue watching after each command. On
// an invariant violation (or a hazard named by --forbid) the sequence is shrunk and written as a
// scenario file that `replsim run` replays. Exit 0 clean, 1 a finding, 2 misuse.
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { describeCatalogue } from '../check/catalogue.js';
import { MAX_CLUSTERS, MIN_CLUSTERS } from '../check/commands/index.js';
import { scenarioYaml, writeScenario, type ScenarioExport } from '../check/export.js';
import { DEFAULT_STEPS, runProperty, type Counterexample } from '../check/property.js';
import { styleFor, type Style } from '../report/narrate.js';
import { loadScenario } from '../scenario/loader.js';
import { runScenario } from '../scenario/runner.js';
import { HAZARD_IDS } from '../scenario/schema.js';
import type { Io } from './run.js';

export interface CheckOptions {
  runs: number;
  seed: number;
  clusters?: number;
  steps: number;
  forbid?: string[];
  out?: string;
  color?: boolean;
}

/** A whole number within bounds, for commander. */
export function wholeNumber(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (v: string) => {
    if (!/^\d+$/.test(v.trim())) throw new InvalidArgumentError(`${flag} takes a whole number, got "${v}"`);
    const n = Number(v);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} takes a number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${n}`);
    return n;
  };
}

/** The hazard ids named by --forbid, or the message that says which are valid. */
export function forbiddenHazards(given: string[] | undefined): { ok: true; ids: string[] } | { ok: false; message: string } {
  const ids = (given ?? []).flatMap((g) => g.split(',')).map((g) => g.trim()).filter((g) => g !== '');
  const unknown = ids.filter((id) => !(HAZARD_IDS as readonly string[]).includes(id));
  if (unknown.length === 0) return { ok: true, ids: [...new Set(ids)] };
  return { ok: false, message: `unknown hazard ${unknown.map((u) => `"${u}"`).join(', ')}: --forbid takes ${HAZARD_IDS.join(', ')}` };
}

export function registerCheck(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('check')
    .description('run random sequences of operator commands and watch every invariant and hazard; shrink a failure into a scenario file')
    .option('--runs <n>', 'command sequences to run', wholeNumber('--runs', 1), 100)
    .option('--seed <n>', "seed of the random sequences and of every world", wholeNumber('--seed', 0), 1)
    .option('--clusters <k>', `clusters per topology, ${MIN_CLUSTERS} to ${MAX_CLUSTERS} (default: each run draws one)`, wholeNumber('--clusters', MIN_CLUSTERS, MAX_CLUSTERS))
    .option('--steps <m>', 'commands per run, at most', wholeNumber('--steps', 1), DEFAULT_STEPS)
    .option('--forbid <hazard...>', `hazards that count as failures (${HAZARD_IDS.join(', ')}); invariant violations always do`)
    .option('--out <dir>', 'write the shrunk counterexample to DIR/counterexample.yaml')
    .option('--no-color', 'no colour even on a terminal (NO_COLOR is honoured too)')
    .action(async (opts: CheckOptions) => setExit(await checkCommand(opts, io)));
}

export async function checkCommand(opts: CheckOptions, io: Io): Promise<number> {
  const st = styleFor(io.stdout, io.env, opts.color === false);
  const forbid = forbiddenHazards(opts.forbid);
  if (!forbid.ok) {
    io.err(`replsim check: ${forbid.message}`);
    return 2;
  }
  const topology = opts.clusters === undefined ? `${MIN_CLUSTERS} to ${MAX_CLUSTERS} clusters` : `${opts.clusters} clusters`;
  io.out(`${st.bold('replsim check')}: ${opts.runs} runs of up to ${opts.steps} commands on ${topology}, seed ${opts.seed}`);
  if (forbid.ids.length) io.out(`forbidden hazards: ${forbid.ids.join(', ')}`);

  const progress = progressReporter(io, opts.runs, st);
  const result = runProperty({ runs: opts.runs, seed: opts.seed, clusters: opts.clusters, steps: opts.steps, forbid: forbid.ids, onProgress: progress.update });
  progress.done();

  const entries = describeCatalogue();
  const n = (x: number) => x.toLocaleString('en-US');
  io.out(`ran ${n(result.runs)} run${result.runs === 1 ? '' : 's'}: ${n(result.commands)} commands, ${n(result.requests)} requests (${n(result.refused)} refused)`);
  io.out('hazards met:');
  const width = Math.max(...entries.map((e) => e.id.length));
  for (const e of entries.filter((x) => x.kind === 'hazard')) {
    const count = result.hazards[e.id] ?? 0;
    const line = `  ${e.id.padEnd(width)} ${String(count).padStart(6)}${forbid.ids.includes(e.id) ? '  (forbidden)' : ''}`;
    io.out(count > 0 ? st.yellow(line) : line);
  }
  const invariants = entries.filter((e) => e.kind === 'invariant');
  const violated = Object.entries(result.violations);
  io.out(`invariants: ${invariants.length} checked, ${violated.length === 0 ? 'none violated' : violated.map(([id, c]) => `${id} violated ${c}x`).join(', ')}`);

  const found = result.findings[0];
  if (!found) {
    io.out(st.green(`valid: no invariant violated${forbid.ids.length ? ' and no forbidden hazard' : ''} in ${n(result.runs)} runs`));
    return 0;
  }
  await reportCounterexample(found, opts, io, st);
  return 1;
}

async function reportCounterexample(found: Counterexample, opts: CheckOptions, io: Io, st: Style): Promise<void> {
  const what = found.id ? `${found.kind} ${found.id}` : found.kind === 'mismatch' ? 'the service answered against the model' : 'a check failed';
  io.out(st.red(`invalid: ${what} in run ${found.run}: ${found.message.trim()}`));
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
  io.out(st.dim(`fast-check replay: seed ${found.replay.seed}, path "${found.replay.path}"`));
}

function withReplayHeader(s: ScenarioExport, file: string): ScenarioExport {
  return { ...s, header: [...(s.header ?? []), `Replay: npx replsim run ${file}`] };
}

/** Loads the written file and runs it as `replsim run` would: does it fail with the same finding? */
async function replaysTheSame(file: string, found: Counterexample): Promise<string | null> {
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

/** A progress bar on a terminal, a line every quarter otherwise. */
export function progressReporter(io: Io, runs: number, st: Style) {
  const stream = io.stdout as { isTTY?: boolean; write?: (s: string) => unknown; columns?: number };
  const tty = stream.isTTY === true && typeof stream.write === 'function';
  let lastQuarter = 0;
  let shrinking = false;
  let drawn = false;
  return {
    update: (p: { phase: 'run' | 'shrink'; done: number; runs: number }) => {
      if (tty) {
        if (p.phase === 'run' && p.done % Math.max(1, Math.floor(runs / 200)) !== 0 && p.done !== runs) return;
        const width = 30;
        const filled = Math.round((Math.min(p.done, runs) / runs) * width);
        const text =
          p.phase === 'run'
            ? `[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${p.done}/${runs} runs`
            : `shrinking the failing run: ${p.done} attempt${p.done === 1 ? '' : 's'}`;
        stream.write!(`\r${st.dim(text)}\u001b[K`);
        drawn = true;
        return;
      }
      if (p.phase === 'shrink') {
        if (!shrinking) io.out('a run failed: shrinking it');
        shrinking = true;
        return;
      }
      const quarter = Math.floor((p.done / runs) * 4);
      if (quarter > lastQuarter && p.done < runs) {
        lastQuarter = quarter;
        io.out(`  ${p.done}/${runs} runs`);
      }
    },
    done: () => {
      if (tty && drawn) stream.write!('\r\u001b[K');
    },
  };
}
