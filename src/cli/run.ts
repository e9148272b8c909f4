// `replsim run FILE|DIR...`: load each scenario, run it with narration, write results, and end with
// a summary table when there are several. Exit code: 0 valid, 1 invalid, 2 bad file or misuse; the
// worst of all files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { formatScenarioError, loadScenario } from '../scenario/loader.js';
import { runScenario, type RunResult } from '../scenario/runner.js';
import { narrateHeader, narrateStep, narrateVerdict, styleFor, type Style } from '../report/narrate.js';
import { redact } from '../report/redact.js';
import { stepJson, writeRunFiles } from '../report/results.js';

export interface RunCommandOptions {
  seed?: number;
  out?: string;
  quiet?: boolean;
  json?: boolean;
  color?: boolean;
}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stdout: { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const SCENARIO_EXT = new Set(['.yaml', '.yml', '.json']);

/** The scenario files named: files as given, folders expanded to their scenario files in name order. */
export function expandPaths(paths: string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) {
      missing.push(p);
      continue;
    }
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (SCENARIO_EXT.has(extname(f)) && f !== 'schema.json') files.push(join(p, f));
    } else files.push(p);
  }
  return { files, missing };
}

interface FileOutcome {
  file: string;
  code: 0 | 1 | 2;
  result?: RunResult;
  error?: string;
}

export async function runCommand(paths: string[], opts: RunCommandOptions, io: Io): Promise<number> {
  const st: Style = styleFor(io.stdout, io.env, opts.color === false || opts.json === true);
  const { files, missing } = expandPaths(paths);
  for (const m of missing) io.err(`replsim: ${m}: no such file or folder`);
  if (files.length === 0) {
    if (missing.length === 0) io.err(`replsim: no scenario files (.yaml, .yml, .json) in ${paths.join(', ')}`);
    return 2;
  }
  const outcomes: FileOutcome[] = missing.map((file) => ({ file, code: 2 as const, error: 'no such file or folder' }));
  for (const file of files) outcomes.push(await runFile(file, files.length > 1, opts, io, st));
  if (outcomes.length > 1 && !opts.json) printSummary(outcomes, io, st);
  return Math.max(...outcomes.map((o) => o.code));
}

async function runFile(file: string, several: boolean, opts: RunCommandOptions, io: Io, st: Style): Promise<FileOutcome> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`${file}: cannot read: ${(e as Error).message}`);
    return { file, code: 2, error: 'cannot read' };
  }
  const loaded = loadScenario(text, file);
  if (!loaded.ok) {
    for (const e of loaded.errors) io.err(formatScenarioError(e));
    io.err(`${file}: not run: ${loaded.errors.length} error${loaded.errors.length === 1 ? '' : 's'} in the file`);
    return { file, code: 2, error: loaded.errors.map(formatScenarioError)[0] };
  }
  const scenario = loaded.scenario;
  const seed = opts.seed ?? scenario.seed;
  if (!opts.quiet && !opts.json) for (const l of narrateHeader(file, scenario.name, scenario.description, seed, st)) io.out(l);
  const result = await runScenario(scenario, {
    seed,
    onStep: (r) => {
      // --json is narration for machines: secrets are shortened there too (results.json keeps them).
      if (opts.json) io.out(JSON.stringify(redact({ file, ...stepJson(r) })));
      else if (!opts.quiet) for (const l of narrateStep(r, st)) io.out(l);
    },
  });
  if (opts.out) writeRunFiles(several ? join(opts.out, basename(file, extname(file))) : opts.out, file, result, scenario.description);
  if (opts.json) io.out(JSON.stringify({ file, verdict: result.verdict, valid: result.verdict === 'valid', reasons: result.reasons, seed: result.seed, stateHash: result.stateHash, findings: result.findings }));
  else {
    if (!opts.quiet || result.verdict !== 'valid') for (const l of narrateVerdict(result, st)) io.out(l);
    if (result.verdict !== 'valid') io.out(st.dim(`replay this run: npx replsim run ${file} --seed ${seed}`));
  }
  return { file, code: result.verdict === 'valid' ? 0 : 1, result };
}

function printSummary(outcomes: FileOutcome[], io: Io, st: Style): void {
  const width = Math.max(4, ...outcomes.map((o) => o.file.length));
  io.out('');
  io.out(st.bold(`${'file'.padEnd(width)}  verdict   steps  hazards  exit`));
  for (const o of outcomes) {
    const verdict = o.code === 0 ? st.green('valid  ') : o.code === 1 ? st.red('invalid') : st.red('error  ');
    const steps = o.result ? String(o.result.steps.length).padStart(5) : '    -';
    const hazards = o.result ? String(o.result.findings.filter((f) => f.kind === 'hazard').length).padStart(7) : '      -';
    io.out(`${o.file.padEnd(width)}  ${verdict}  ${steps}  ${hazards}  ${String(o.code).padStart(4)}`);
  }
  const counts = [0, 1, 2].map((c) => outcomes.filter((o) => o.code === c).length);
  io.out(`${outcomes.length} files: ${counts[0]} valid, ${counts[1]} invalid, ${counts[2]} not run`);
}
