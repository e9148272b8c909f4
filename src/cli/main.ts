// The `replsim` command. Exit codes: 0 valid, 1 invalid, 2 misuse or a bad file, 3 unknown (exit-codes.ts).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { isKnownEventType, World } from '../world.js';
import { HistoryFileError, readHistory, runIdOf } from '../kernel/persist.js';
import { mixedRuns } from '../report/run-id.js';
import type { SimEvent } from '../areas/core/events.js';
import { colourOptions, runCommand, type Io } from './run.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { registerCheck } from './check.js';
import { registerExplore } from './explore.js';
import { registerDiagram } from './diagram.js';
import { registerServe } from './serve.js';
import { registerMerge } from './merge.js';
import { registerWhatif } from './whatif.js';
import { bytesText, readRegularFile, readUpTo } from '../kernel/files.js';
import { SCENARIO_BOUNDS } from '../scenario/bounds.js';
import { tuneHeap } from './heap.js';

export { tuneHeap };

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** A seed: a whole number that survives the trip through a JavaScript number unchanged. */
function seedArg(name: string) {
  return (v: string) => {
    if (!/^-?\d+$/.test(v.trim())) throw new InvalidArgumentError(`${name} must be a whole number, got "${v}"`);
    const n = Number(v);
    // 99999999999999999999 would silently become 100000000000000000000: refuse it rather than run another seed.
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a whole number from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, got ${v}`);
    return n;
  };
}

/**
 * What a file that does not open as a history is instead, when it is one of the files beside it
 * (`run --out` writes results.json, history.jsonl, summary.json; a scenario is run, not replayed).
 */
function otherRunFile(file: string): string | undefined {
  const beside = join(dirname(file), 'history.jsonl');
  const hint = existsSync(beside)
    ? `replay reads the history beside it: replsim replay ${beside}`
    : 'replay reads the history.jsonl that `replsim run --out DIR` writes: replsim replay DIR/history.jsonl';
  let text: string;
  try {
    // Read only when a regular file of a scenario's size at most (a link to /dev/zero is none).
    text = readRegularFile(file, SCENARIO_BOUNDS.maxFileBytes);
  } catch {
    return undefined;
  }
  if (/\.ya?ml$/i.test(file)) return `this is a scenario file (run it with replsim run ${file}); ${hint}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const has = (key: string) => Object.hasOwn(value, key);
  if (has('format') && has('verdict') && has('steps')) return `this is a results file (results.json), not a history; ${hint}`;
  if (has('format') && has('counts') && has('files')) return `this is a summary of several runs (summary.json), not a history; ${hint}`;
  if (has('steps')) return `this is a scenario file (run it with replsim run ${file}); ${hint}`;
  return undefined;
}

const EXAMPLES = `
Examples:
  $ replsim run scenarios/01-dr-setup.yaml             narrate one scenario
  $ replsim run scenarios/ -q --junit out/junit.xml    a whole folder for CI: failures only, JUnit XML
  $ cat runbook.yaml | replsim run -                   a scenario from standard input
  $ replsim check --runs 300 --seed 1 --forbid two-primaries
  $ replsim explore --depth 5 --clusters 3 --time-limit 60s
  $ replsim check --runs 20000 --shard 2/4 --out shards/   one CI matrix job; then: replsim merge shards/
  $ replsim whatif my-runbook.yaml --out out/          is the runbook safe with a fault at any step?
`;

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('replsim')
    .description('Rehearse replication failovers against a simulated secrets-management service')
    .version(pkg.version)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) })
    .addHelpText('after', EXAMPLES + EXIT_CODES_HELP)
    .showSuggestionAfterError(true);

  const run = program
    .command('run')
    .description('run scenario files (or every scenario in a folder) and report whether each outcome matches its expect')
    .argument('<paths...>', 'scenario files, folders (searched recursively) or - for standard input')
    .option('--seed <n>', 'override the seed of every file', seedArg('--seed'))
    .option('--out <dir>', 'write results.json and history.jsonl here (several files: one sub-folder each, and summary.json)')
    .option('--junit <file>', 'write a JUnit XML report (one testcase per file, a failure per failed step with file:line)')
    .option('-q, --quiet', 'print only the files that fail (and, for several, the counts)')
    .option('-v, --verbose', 'narrate whole request and response bodies (by default a long body is cut, never the fields a step\'s expect names), and list the files a folder run skipped')
    .option('--json', 'print one JSON object per step, then one per file (and a summary for several); with -q only failing files')
    .option('--keep-going', 'run every step even after one fails its expectation, reporting each failure (the verdict stays invalid)')
    .addHelpText('after', `
On GitHub Actions (GITHUB_ACTIONS=true) each failure is also printed as an ::error file=…,line=…:: annotation.
` + EXIT_CODES_HELP)
    .action(async (paths: string[], opts) => setExit(await runCommand(paths, opts, io)));
  colourOptions(run);

  program
    .command('replay')
    .description('rebuild a world from a history.jsonl alone, check it was not changed, and print its state hash')
    .argument('<history>', 'a history.jsonl written by run --out')
    .action((file: string) => {
      try {
        const history = readHistory<SimEvent>(file, isKnownEventType, { incomplete: true });
        const world = World.replay(history);
        io.out(world.stateHash());
        let code = 0;
        if (history.incomplete) {
          // A run or session stopped before its end: what it committed is replayed, and said to be all there is.
          io.err(`${file}: incomplete: ${history.events.length} events, no closing line${history.incomplete.cutShort ? ' (and a last line cut short, left out)' : ''}: the run was stopped before its end; the state hash is of the events it committed`);
          code = 1;
        }
        // The folder's other files must be of the same run (a run killed midway, files copied together).
        const mixed = isHistoryFile(file) ? mixedRuns(dirname(file), runIdOf(history)) : [];
        for (const m of mixed) io.err(`${file}: warning: the folder holds files of different runs: ${m}`);
        setExit(mixed.length > 0 ? 1 : code);
      } catch (e) {
        // A flawed history is a bad file: `file:line: what`, exit 2. Anything else is a bug.
        if (!(e instanceof HistoryFileError)) throw e;
        const other = e.line === 1 ? otherRunFile(file) : undefined;
        io.err(other === undefined ? e.message : `${file}: ${other}`);
        setExit(2);
      }
    });

  registerCheck(program, io, setExit);
  registerExplore(program, io, setExit);
  registerDiagram(program, io, setExit);
  registerServe(program, io, setExit);
  registerMerge(program, io, setExit);
  registerWhatif(program, io, setExit);

  return program;
}

/** A history.jsonl of an --out folder (not standard input, a pipe or a file renamed elsewhere). */
function isHistoryFile(file: string): boolean {
  return basename(file) === 'history.jsonl';
}

/** Standard input's text, bounded as a scenario file is: `replsim run - </dev/zero` is refused, not read until the memory is gone. */
export function readStdin(): string {
  return readUpTo(0, SCENARIO_BOUNDS.maxFileBytes, () => new Error(`more than ${bytesText(SCENARIO_BOUNDS.maxFileBytes)} on standard input, larger than a scenario file may be`));
}

export async function main(argv: string[], io: Io): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => (code = c));
  if (argv.length === 0) {
    // No command is a usage error, as everywhere else: the help goes to stderr and the exit code is 2.
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? 0 : 2;
    io.err(`replsim: internal error (please report): ${(e as Error).stack ?? String(e)}`);
    return 2;
  }
  return code;
}

const isEntry = process.argv[1] !== undefined && /cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) {
  tuneHeap(process.argv.slice(2));
  const io: Io = {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdin: readStdin,
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
