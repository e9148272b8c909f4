// Spawning the real `replsim` as a user or CI would: exit code, stdout and stderr, with a clean
// environment (no colour unless a test asks, not on GitHub Actions unless a test says so).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');
export const ROOT = join(__dirname, '..', '..');

export interface Spawned {
  code: number | null;
  out: string;
  err: string;
}

/** Runs replsim with args; `env` adds variables (undefined removes one), `input` is standard input. */
export function replsim(args: string[], options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {}): Spawned {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined, ...options.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: env as NodeJS.ProcessEnv, input: options.input ?? '', cwd: options.cwd ?? ROOT, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A fresh temporary folder, and a writer of files below it (folders made as needed). */
export function scratch(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file(name: string, text: string): string {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
  };
}

/** A scenario that passes: write a secret and read it back. */
export const PASSING = `name: write and read
clusters:
  east: {}
steps:
  - request: POST secret/data/app
    on: east
    body: { data: { password: s3cret } }
  - request: GET secret/data/app
    on: east
    expect: { data: { data: { password: s3cret } } }
`;

/** A scenario whose second step (line 9) fails: the path is not served, 404 with a multi-line error. */
export const FAILING = `name: wrong expectation
seed: 3
clusters:
  east: {}
steps:
  - request: POST secret/data/app
    on: east
    body: { data: { a: 1 } }
  - request: GET sys/no/such/path
    on: east
    expect: { status: 200 }
`;

/**
 * `replsim ARGS` run in this process (no spawn): its exit code, stdout and stderr lines joined, with
 * the environment `replsim()` gives a spawned command. For the tests of what a command prints and
 * exits with, not of the process around it (bin/replsim.js, the bundle, signals, pipes): a spawn
 * costs half a second of CPU before the command starts.
 */
export async function inProcess(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import('../../src/cli/main.js');
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined, ...options.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const out: string[] = [];
  const err: string[] = [];
  const stdin = () => options.input ?? '';
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), stdout: { isTTY: false }, stderr: { isTTY: false }, env: env as NodeJS.ProcessEnv, stdin });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
