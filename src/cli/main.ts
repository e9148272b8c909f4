// The `replsim` command. Exit codes follow Maelstrom's: 0 valid, 1 invalid, 2 misuse or a bad file.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { World } from '../simulation.js';
import { HistoryFileError, readJsonl } from '../world/persist.js';
import type { SimEvent } from '../cluster/events.js';
import { runCommand, type Io } from './run.js';
import { registerCheck } from './check.js';
import { registerExplore } from './explore.js';
import { registerServe } from './serve.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

function integer(name: string) {
  return (v: string) => {
    if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number, got "${v}"`);
    return Number(v);
  };
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('replsim')
    .description('Rehearse replication failovers against a simulated secrets-management service')
    .version(pkg.version)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });

  program
    .command('run')
    .description('run scenario files (or every scenario in a folder) and report whether each outcome matches its expect')
    .argument('<paths...>', 'scenario files or folders')
    .option('--seed <n>', 'override the seed of every file', integer('--seed'))
    .option('--out <dir>', 'write results.json and history.jsonl here (one sub-folder per file when several)')
    .option('-q, --quiet', 'print only the verdict of files that fail')
    .option('--json', 'print one JSON object per step, then one per file')
    .option('--no-color', 'no colour even on a terminal (NO_COLOR is honoured too)')
    .action(async (paths: string[], opts) => setExit(await runCommand(paths, opts, io)));

  program
    .command('replay')
    .description("rebuild a world from a history.jsonl alone and print its state hash")
    .argument('<history>', 'a history.jsonl written by run --out')
    .action((file: string) => {
      try {
        const world = World.replay(readJsonl<SimEvent>(file));
        io.out(world.stateHash());
        setExit(0);
      } catch (e) {
        if (!(e instanceof HistoryFileError || e instanceof Error)) throw e;
        io.err(`replsim replay: ${e.message}`);
        setExit(2);
      }
    });

  registerCheck(program, io, setExit);
  registerExplore(program, io, setExit);
  registerServe(program, io, setExit);

  return program;
}

export async function main(argv: string[], io: Io): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => (code = c));
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
  const io: Io = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n'), stdout: process.stdout, env: process.env };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
