// `replsim run FILE|DIR|-...`: load each scenario, run it with narration, write results, and end with
// a summary table when there are several. Exit code: 0 valid, 1 invalid, 2 bad file or misuse; the
// worst of all files. One file that cannot be read, loaded or run never stops the others: it is
// reported, counted as "not run", and the run goes on to the next file and the summary.
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { formatScenarioError, loadScenarioStreamed, type StreamedLoadResult } from '../scenario/loader.js';
import { runScenario } from '../scenario/runner.js';
import { narrateHeader, narrateStep, narrateVerdict, oneLine, styleFor, type Style } from '../report/narrate.js';
import { redact } from '../report/redact.js';
import { roundMs, RunFiles, stepJson, summaryJson, summaryOf, writeSummary, type FileOutcome } from '../report/results.js';
import type { World } from '../world.js';
import { githubAnnotations, junitXml } from '../report/ci.js';
import { formatWall } from './progress.js';
import { InputFileError, readRegularFile } from '../kernel/files.js';
import { SCENARIO_BOUNDS } from '../scenario/bounds.js';

export interface RunCommandOptions {
  seed?: number;
  out?: string;
  quiet?: boolean;
  /** Whole bodies in the narration. */
  verbose?: boolean;
  json?: boolean;
  /** --color (true) / --no-color (false); undefined lets the environment decide. */
  color?: boolean;
  junit?: string;
  /** Run every step even after one fails its expectation (the verdict stays invalid). */
  keepGoing?: boolean;
}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stdout: { isTTY?: boolean };
  /** Standard error, where long commands show their progress (a terminal gets one line rewritten in place). */
  stderr?: { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Standard input's text, for `run -` (read lazily: only when asked for). */
  stdin?: () => string;
}

/** The colour options every command takes: --color forces it, --no-color turns it off. */
export function colourOptions<C extends Command>(command: C): C {
  return command
    .option('--color', 'colour even when the output is not a terminal (as FORCE_COLOR=1 does)')
    .option('--no-color', 'no colour even on a terminal (as NO_COLOR=1 does)') as C;
}

const SCENARIO_EXT = new Set(['.yaml', '.yml', '.json']);
/** The name `-` (standard input) is shown as, in messages and reports. */
export const STDIN_NAME = '<stdin>';

/** One thing to run: a file on disk, standard input, or a path that cannot be run (and why). */
type Source = { file: string; stdin?: true; problem?: string };

/** A file a folder run passed over, and why (listed with -v). */
export interface Skipped {
  file: string;
  why: string;
}

/**
 * The scenario files named: `-` is standard input, files as given, folders expanded to their
 * scenario files (recursively, in path order; hidden folders and node_modules left out): every
 * `.yaml` and `.yml` file, and the `.json` files that open as a scenario. The files a folder held
 * but that are not scenarios are in `skipped`.
 */
export function expandPaths(paths: string[]): { sources: Source[]; skipped: Skipped[] } {
  const sources: Source[] = [];
  const skipped: Skipped[] = [];
  for (const p of paths) {
    if (p === '-') {
      sources.push({ file: STDIN_NAME, stdin: true });
      continue;
    }
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      sources.push({ file: p, problem: whyUnreadable(p, e) });
      continue;
    }
    if (!isDir) {
      // A file named on purpose but not a scenario (README.md) gets one line, not a page of YAML errors.
      sources.push(SCENARIO_EXT.has(extname(p).toLowerCase()) ? { file: p } : { file: p, problem: 'not a scenario file: scenario files end in .yaml, .yml or .json' });
      continue;
    }
    const found = scenarioFilesUnder(p, new Set([realpathSync(p)]), skipped);
    if (found.length === 0) sources.push({ file: p, problem: 'no scenario files (.yaml, .yml, or .json with "steps") in this folder or below' });
    sources.push(...found);
  }
  return { sources, skipped };
}

/** Why a path named or met cannot be read, in words: a missing file, a symbolic link loop, a dangling link. */
function whyUnreadable(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'a symbolic link loop: following its links leads back to one of them';
  if (code === 'ENOENT') {
    try {
      if (lstatSync(path).isSymbolicLink()) return `a symbolic link to ${readlinkSync(path)}, which does not exist`;
    } catch {
      // not even a link: missing
    }
    return 'no such file or folder';
  }
  if (code === 'EACCES') return 'cannot read it: permission denied';
  return `cannot read it: ${(e as Error).message}`;
}

/**
 * Scenario files below `dir`. Symbolic links are followed, to files and to folders; a link to a
 * folder being searched already (an ancestor: `ancestors` holds their real paths) is a loop, named
 * and counted as a file not run rather than followed forever. A `.json` file that does not open as a
 * scenario is put in `skipped`.
 */
function scenarioFilesUnder(dir: string, ancestors: Set<string>, skipped: Skipped[]): Source[] {
  const files: Source[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const st = statSync(path);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch (e) {
        if (SCENARIO_EXT.has(extname(entry.name).toLowerCase()) || (e as NodeJS.ErrnoException).code === 'ELOOP') files.push({ file: path, problem: whyUnreadable(path, e) });
        continue;
      }
    }
    if (isDir) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const real = realpathSync(path);
      if (ancestors.has(real)) {
        files.push({ file: path, problem: `a symbolic link loop: it leads back to ${real}, a folder this search is already in; left out` });
        continue;
      }
      files.push(...scenarioFilesUnder(path, new Set([...ancestors, real]), skipped));
    } else if (isFile && SCENARIO_EXT.has(extname(entry.name).toLowerCase())) {
      const why = extname(entry.name).toLowerCase() === '.json' ? notAScenario(path) : undefined;
      if (why === undefined) files.push({ file: path });
      else skipped.push({ file: path, why });
    }
  }
  return files;
}

/**
 * Why a JSON file beside scenarios is not one (a request body written with `tee`, a JSON Schema, a
 * run's results.json), or undefined when it is: an object with `steps` and no `format` (replsim's own
 * results and summaries carry `format`; a scenario may not).
 */
function notAScenario(path: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'JSON, but not an object';
  if (Object.hasOwn(value, 'format')) return 'replsim output (it has "format"), not a scenario';
  if (!Object.hasOwn(value, 'steps')) return 'JSON without "steps", not a scenario';
  return undefined;
}

/**
 * The --out sub-folder of each file when several run: its path below the folder all of them share,
 * without the extension (`scenarios/01-dr-setup.yaml` → `01-dr-setup`, `a/x.yaml` and `b/x.yaml` →
 * `a/x` and `b/x`). Files that would still share a folder keep their extension (`x.yaml`, `x.json`),
 * and standard input is `stdin`. Deterministic: the same command line gives the same folders.
 */
export function outFolders(files: string[]): string[] {
  const real = files.filter((f) => f !== STDIN_NAME).map((f) => resolve(f));
  const root = real.length === 0 ? '' : real.map((f) => dirname(f)).reduce(commonDir);
  const withExt = files.map((f) => (f === STDIN_NAME ? 'stdin' : relative(root, resolve(f)).split(sep).join('/')));
  const bare = withExt.map((f) => (f === 'stdin' ? f : f.slice(0, f.length - extname(f).length)));
  const taken = new Map<string, number>();
  for (const b of bare) taken.set(b, (taken.get(b) ?? 0) + 1);
  const names = bare.map((b, i) => ((taken.get(b) ?? 0) > 1 ? withExt[i] : b));
  // The same file named twice runs twice: number the repeats.
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n}~${k}`;
  });
}

function commonDir(a: string, b: string): string {
  const pa = a.split(sep);
  const pb = b.split(sep);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join(sep) || sep;
}

export async function runCommand(paths: string[], opts: RunCommandOptions, io: Io): Promise<number> {
  const st: Style = styleFor(io.stdout, io.env, opts.json ? false : opts.color);
  const { sources, skipped } = expandPaths(paths);
  if (opts.verbose) for (const { file, why } of skipped) (opts.json ? io.err : io.out)(st.dim(`skipped ${file}: ${why}`));
  if (sources.filter((s) => s.stdin).length > 1) {
    io.err('replsim run: "-" (standard input) can be named only once');
    return 2;
  }
  const several = sources.length > 1;
  const folders = outFolders(sources.map((s) => s.file));
  const outcomes: FileOutcome[] = [];
  for (const [i, source] of sources.entries()) {
    const outDir = opts.out === undefined ? undefined : several ? folders[i] : '.';
    outcomes.push(await runSource(source, outDir, opts, io, st));
  }
  const code = Math.max(...outcomes.map((o) => o.code));

  if (opts.json) {
    if (several) io.out(JSON.stringify({ summary: summaryJson(outcomes) }));
  } else if (several) printSummary(outcomes, io, st, opts.quiet === true);
  if (opts.out !== undefined && several) {
    const path = writeSummary(opts.out, outcomes);
    if (!opts.quiet && !opts.json) io.out(st.dim(`wrote ${path}`));
  }
  if (opts.junit !== undefined) {
    try {
      mkdirSync(dirname(resolve(opts.junit)), { recursive: true });
      writeFileSync(opts.junit, junitXml(outcomes));
      if (!opts.quiet && !opts.json) io.out(st.dim(`wrote ${opts.junit} (JUnit XML)`));
    } catch (e) {
      io.err(`replsim run: cannot write --junit ${opts.junit}: ${(e as Error).message}`);
      return 2;
    }
  }
  // GitHub Actions turns these lines into annotations on the file and line (its runners set
  // GITHUB_ACTIONS=true). The runner reads workflow commands from stdout and stderr alike: with --json
  // they go to stderr, so stdout stays one JSON object a line.
  if (io.env.GITHUB_ACTIONS === 'true') for (const line of githubAnnotations(outcomes)) (opts.json ? io.err : io.out)(line);
  return code;
}

/**
 * The file read and loaded, or why it could not be read. The steps are read from the text as the
 * run reaches them (a file of 100,000 steps is not held parsed), and the text itself is let go when
 * this returns: a run that kept it in its own scope would hold it to the end (7.5 MB for 100,000
 * steps).
 */
function readAndLoad(source: Source, io: Io): StreamedLoadResult | { unread: string } {
  const file = source.file;
  let text: string;
  try {
    if (source.stdin) {
      if (!io.stdin) throw new Error('standard input cannot be read here');
      text = io.stdin();
    } else text = readRegularFile(file, SCENARIO_BOUNDS.maxFileBytes, 'scenario file');
  } catch (e) {
    return { unread: e instanceof InputFileError ? e.message : `${file}: cannot read: ${(e as Error).message}` };
  }
  return loadScenarioStreamed(text, file);
}

async function runSource(source: Source, outDir: string | undefined, opts: RunCommandOptions, io: Io, st: Style): Promise<FileOutcome> {
  const started = performance.now();
  const file = source.file;
  const notRun = (errors: string[]): FileOutcome => {
    if (opts.json) io.out(JSON.stringify({ file, verdict: 'not-run', valid: false, errors }));
    return { file, code: 2, errors, wallMs: performance.now() - started };
  };
  if (source.problem) {
    io.err(`replsim: ${file}: ${source.problem}`);
    return notRun([`${file}: ${source.problem}`]);
  }
  const loaded = readAndLoad(source, io);
  if ('unread' in loaded) {
    io.err(`replsim: ${loaded.unread}`);
    return notRun([loaded.unread]);
  }
  if (!loaded.ok) {
    const lines = loaded.errors.map(formatScenarioError);
    for (const l of lines) io.err(l);
    io.err(`${file}: not run: ${loaded.errors.length} error${loaded.errors.length === 1 ? '' : 's'} in the file`);
    return notRun(lines);
  }
  const scenario = loaded.scenario;
  const seed = opts.seed ?? scenario.seed;
  const replay = `npx replsim run ${source.stdin ? '-' : file} --seed ${seed}${opts.keepGoing ? ' --keep-going' : ''}`;
  if (!opts.quiet && !opts.json) for (const l of narrateHeader(file, scenario.name, scenario.description, seed, st)) io.out(l);
  // With --out, the history is written as the run goes: a run killed midway leaves every step's events.
  let files: RunFiles | undefined;
  const dir = outDir !== undefined && opts.out !== undefined ? join(opts.out, outDir) : undefined;
  if (dir !== undefined) {
    try {
      files = RunFiles.open(dir, { now: () => performance.now(), everyMs: 1000 });
    } catch (e) {
      io.err(`replsim: ${file}: cannot write results to ${dir}: ${(e as Error).message}`);
      return notRun([`cannot write results to ${dir}`]);
    }
    if (files.replaced.length > 0) io.err(`replsim: warning: ${dir} held files of different runs (${files.replaced.join('; ')}): they are replaced by this run's`);
  }
  let world: World | undefined;
  let result;
  try {
    result = await runScenario(scenario, {
      seed,
      locate: loaded.locate,
      wallClock: () => performance.now(),
      keepGoing: opts.keepGoing === true,
      onWorld: (w) => {
        world = w;
        files?.follow(w.log);
      },
      onStep: (r) => {
        if (world) files?.follow(world.log);
        // --json is narration for machines: secrets are shortened there too (results.json keeps them).
        if (opts.json) {
          if (!opts.quiet) io.out(JSON.stringify(redact({ file, ...stepJson(r) })));
        } else if (!opts.quiet) for (const l of narrateStep(r, st, { verbose: opts.verbose })) io.out(l);
      },
    });
  } catch (e) {
    // The simulator itself failed on this file: a replsim bug, reported on one line; the other files still run.
    const message = `${file}: not run to the end: replsim failed (please report, with this file): ${oneLine(e instanceof Error ? e.message : String(e))}`;
    files?.release();
    io.err(message);
    return notRun([message]);
  }
  const expectLine = loaded.locate(['expect']).line || 1;
  const outcome: FileOutcome = { file, code: result.verdict === 'valid' ? 0 : 1, result: summaryOf(result), wallMs: performance.now() - started, expectLine };
  if (files && dir !== undefined && outDir !== undefined) {
    try {
      files.finish(file, result, scenario.description);
      outcome.outDir = outDir;
    } catch (e) {
      io.err(`replsim: ${file}: cannot write results to ${dir}: ${(e as Error).message}`);
      return { ...outcome, code: 2, errors: [`cannot write results to ${dir}`] };
    }
  }
  if (opts.json) {
    if (!opts.quiet || result.verdict !== 'valid') {
      io.out(JSON.stringify({ file, verdict: result.verdict, valid: result.verdict === 'valid', reasons: result.reasons, seed: result.seed, stateHash: result.stateHash, findings: result.findings, virtualMs: result.virtualMs, wallMs: roundMs(outcome.wallMs) }));
    }
  } else {
    if (!opts.quiet || result.verdict !== 'valid') for (const l of narrateVerdict(result, st)) io.out(l);
    if (result.verdict !== 'valid') io.out(st.dim(`replay this run: ${replay}`));
  }
  return outcome;
}

/** The table after a multi-file run; with --quiet only the files that did not pass, and the counts. */
function printSummary(outcomes: FileOutcome[], io: Io, st: Style, quiet: boolean): void {
  const rows = quiet ? outcomes.filter((o) => o.code !== 0) : outcomes;
  if (rows.length > 0) {
    const width = Math.max(4, ...rows.map((o) => o.file.length));
    io.out('');
    io.out(st.bold(`${'file'.padEnd(width)}  verdict   steps  hazards  exit    time`));
    for (const o of rows) {
      const verdict = o.code === 0 ? st.green('valid  ') : o.code === 1 ? st.red('invalid') : st.red('not run');
      const steps = o.result ? String(o.result.steps).padStart(5) : '    -';
      const hazards = o.result ? String(o.result.findings.filter((f) => f.kind === 'hazard').length).padStart(7) : '      -';
      io.out(`${o.file.padEnd(width)}  ${verdict}  ${steps}  ${hazards}  ${String(o.code).padStart(4)}  ${formatWall(o.wallMs).padStart(6)}`);
    }
  }
  const counts = [0, 1, 2].map((c) => outcomes.filter((o) => o.code === c).length);
  io.out(`${outcomes.length} files: ${counts[0]} valid, ${counts[1]} invalid, ${counts[2]} not run`);
}
