// Hostile scenario files: each is refused with exit 2 and an error in replsim's words (never a
// JavaScript engine message), within bounded time and memory — the spawned process gets a heap of
// 500 MB and is killed after 10 s of work; the loader's bounds are also checked in-process, with
// files just inside each bound still loading.
import { spawn, spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario, formatScenarioError } from '../../src/scenario/loader.js';
import { SCENARIO_BOUNDS } from '../../src/scenario/bounds.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { BIN, ROOT, scratch } from '../cli/helpers.js';

const s = scratch('replsim-hostile-');

/**
 * Spawns a command without blocking the test worker (a blocked worker misses vitest's own calls),
 * killed with SIGKILL after `timeout` ms: its exit code, the signal that ended it, and its output.
 */
function spawned(command: string, args: string[], timeout: number): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: undefined }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('exit', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stderr });
    });
  });
}

/** Node has no mkfifo: the system's command makes the named pipe. */
function mkfifoSync(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path} failed: ${r.stderr}`);
}
const HEAD = 'name: hostile\nclusters:\n  east: {}\nsteps:\n';

/** A 1 MiB scalar anchored in one step's body and aliased `times` times in the next. */
function aliasBomb(times: number, scalarChars = 1 << 20): string {
  let text = `${HEAD}  - request: POST secret/data/a\n    on: east\n    body: { data: { v: &big "${'a'.repeat(scalarChars)}" } }\n  - request: POST secret/data/b\n    on: east\n    body:\n      data:\n`;
  for (let i = 0; i < times; i++) text += `        k${i}: *big\n`;
  return text;
}

function nestedFlow(depth: number): string {
  return `${HEAD}  - request: POST secret/data/a\n    on: east\n    body: { data: ${'['.repeat(depth)}${']'.repeat(depth)} }\n`;
}

function nestedBlock(depth: number): string {
  let text = `${HEAD}  - request: POST secret/data/a\n    on: east\n    body:\n`;
  for (let i = 0; i < depth; i++) text += `${' '.repeat(6 + i)}k:\n`;
  return text + `${' '.repeat(6 + depth)}v\n`;
}

const tokenOf = (chars: number) => `${HEAD}  - request: GET sys/replication/status\n    on: east\n    token: "${'t'.repeat(chars)}"\n`;

/**
 * The cases of the report: a 1 MiB scalar aliased 900 times, an 8 MiB token (over the file bound)
 * and a 2 MiB one (under it, over the value bound), YAML nested 1,000 deep (flow and block), a FIFO
 * named x.yaml and a link to /dev/zero.
 */
function hostileFiles(): Record<string, { file: string; error: RegExp }> {
  const fifo = join(s.dir, 'fifo.yaml');
  mkfifoSync(fifo);
  const zero = join(s.dir, 'zero.yaml');
  symlinkSync('/dev/zero', zero);
  return {
    aliases: { file: s.file('aliases.yaml', aliasBomb(900)), error: /aliases\.yaml:12:\d+: .*with its aliases expanded the file grows past 16 MiB/ },
    'token 8 MiB': { file: s.file('token8.yaml', tokenOf(8 << 20)), error: /token8\.yaml: not read: 8,388,\d+ bytes, larger than a scenario file may be \(8 MiB\)/ },
    'token 2 MiB': { file: s.file('token2.yaml', tokenOf(2 << 20)), error: /token2\.yaml:7:12: step 1: token: a value of 2,097,152 characters: a scenario file's values are at most 1,048,576 characters/ },
    'nested flow': { file: s.file('flow.yaml', nestedFlow(1000)), error: /flow\.yaml:7:\d+: maps and lists are nested more than 520 deep here/ },
    'nested block': { file: s.file('block.yaml', nestedBlock(1000)), error: /block\.yaml:\d+:\d+: maps and lists are nested more than 520 deep here/ },
    fifo: { file: fifo, error: /fifo\.yaml: not read: it is a FIFO \(named pipe\), and a scenario file must be a regular file/ },
    '/dev/zero': { file: zero, error: /zero\.yaml: not read: it is a character device, and a scenario file must be a regular file/ },
  };
}

describe('hostile scenario files are refused in replsim words, bounded (spawned)', () => {
  const cases = hostileFiles();
  // Starting from the TypeScript sources takes a few seconds on a busy machine: 10 s of work on top.
  const LIMIT_MS = 25_000;
  it.each(Object.keys(cases))('%s: exit 2, an error naming the file and the bound', async (name) => {
    const { file, error } = cases[name];
    const r = await spawned(process.execPath, ['--max-old-space-size=500', BIN, 'run', file], LIMIT_MS);
    expect(r.signal, `${name} was killed (stderr: ${r.stderr.slice(0, 300)})`).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(error);
    expect(r.stderr).not.toMatch(/Maximum call stack|Invalid string length|please report|RangeError|heap/i);
  }, 60_000);

  it('standard input is bounded too: /dev/zero piped in is refused, not read until the memory is gone', async () => {
    const r = await spawned('sh', ['-c', `exec "${process.execPath}" --max-old-space-size=500 "${BIN}" run - < /dev/zero`], LIMIT_MS);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/<stdin>: cannot read: more than 8 MiB on standard input, larger than a scenario file may be/);
  }, 60_000);

  it('replay refuses a link to /dev/zero by its first line, before the line grows without bound', async () => {
    const r = await spawned(process.execPath, ['--max-old-space-size=500', BIN, 'replay', cases['/dev/zero'].file], LIMIT_MS);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/zero\.yaml:1: a line longer than 64 MiB: not a replsim history/);
  }, 60_000);
});

describe('the bounds refuse only what crosses them', () => {
  const load = (text: string) => loadScenario(text, 'f.yaml');
  const firstError = (text: string) => {
    const r = load(text);
    return r.ok ? 'loaded' : formatScenarioError(r.errors[0]);
  };

  it('a body nested as deep as the service takes (500) loads; depth past the file bound does not', () => {
    const body = (depth: number) => `${HEAD}  - request: POST secret/data/a\n    on: east\n    body: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`;
    expect(firstError(body(501))).toBe('loaded');
    expect(firstError(body(SCENARIO_BOUNDS.maxDepth))).toMatch(/nested more than 520 deep/);
  });

  it('aliases within the expansion bound load; one more alias of a large value crosses it', () => {
    // 15 copies of a 1 MiB value plus its anchor: under 16 MiB; 17 are over.
    expect(firstError(aliasBomb(14))).toBe('loaded');
    expect(firstError(aliasBomb(17))).toMatch(/f\.yaml:\d+:\d+: .*with its aliases expanded the file grows past 16 MiB/);
  });

  it('nested aliases count as expanded: each level multiplies (a billion laughs made of small strings)', () => {
    let text = `${HEAD}  - request: POST secret/data/a\n    on: east\n    body:\n      l0: &l0 ["${'x'.repeat(1000)}"]\n`;
    for (let i = 1; i < 10; i++) text += `      l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`;
    expect(firstError(text)).toMatch(/with its aliases expanded the file grows past 16 MiB/);
  });

  it('an alias deepens what it is placed in: the expanded depth is bounded too', () => {
    let text = `${HEAD}  - request: POST secret/data/a\n    on: east\n    body:\n      d0: &d0 ${'['.repeat(400)}${']'.repeat(400)}\n`;
    text += `      d1: ${'['.repeat(200)}*d0${']'.repeat(200)}\n`;
    expect(firstError(text)).toMatch(/with its aliases expanded, maps and lists are nested more than 520 deep/);
  });

  it('a value of exactly the bound loads', () => {
    expect(firstError(tokenOf(SCENARIO_BOUNDS.maxValueChars))).toMatch(/^loaded$|token/);
    expect(firstError(tokenOf(SCENARIO_BOUNDS.maxValueChars))).not.toMatch(/values are at most/);
  });
});

describe('the control listener takes its bodies within the service listener bounds', () => {
  let handle: ServeHandle | undefined;
  afterEach(async () => {
    await handle?.stop();
    handle = undefined;
  });

  it('a command nested 100,000 deep is refused with 400 naming max_json_depth, and the listener lives on', async () => {
    handle = await serve({ clusters: ['east', 'west'], clock: 'manual' });
    const deep = '{"wait":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    const auth = { Authorization: `Bearer ${handle.control.secret}` };
    const res = await fetch(`${handle.control.url}/v1/step`, { method: 'POST', body: deep, headers: auth });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: ['request body is nested deeper than 500 (max_json_depth)'] });
    const ok = await fetch(`${handle.control.url}/v1/step`, { method: 'POST', body: JSON.stringify({ wait: '1s' }), headers: auth });
    expect(ok.status).toBe(200);
  });
});
