// End to end: spawn the real `replsim` binary, as a user or CI would, and check exit codes and output.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PASSING } from './helpers.js';

const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');
const dir = mkdtempSync(join(tmpdir(), 'replsim-cli-'));

function replsim(...args: string[]) {
  return replsimWith({}, ...args);
}

function replsimWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const passing = file('pass.yaml', PASSING);

describe('replsim CLI', () => {
  it('exits 0 on a file whose outcome matches its expect, and writes results and history', () => {
    const out = join(dir, 'out-pass');
    const r = replsim('run', passing, '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/VALID: 2 steps/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.valid).toBe(true);
    expect(results.steps).toHaveLength(2);
    const replay = replsim('replay', join(out, 'history.jsonl'));
    expect(replay.code).toBe(0);
    expect(replay.out.trim()).toBe(results.stateHash);
  });

  it('writes a byte-identical history for the same file and seed', () => {
    replsim('run', passing, '--out', join(dir, 'h1'), '--seed', '5');
    replsim('run', passing, '--out', join(dir, 'h2'), '--seed', '5');
    expect(readFileSync(join(dir, 'h1', 'history.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'h2', 'history.jsonl'), 'utf8'));
  });

  it('exits 1 when an expectation fails, says which, and prints the command that replays the run', () => {
    const f = file(
      'fail.yaml',
      `name: wrong expectation
seed: 3
clusters:
  east: {}
steps:
  - request: GET secret/data/nothing
    on: east
    expect: { status: 200 }
`,
    );
    const r = replsim('run', f);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/INVALID/);
    expect(r.out).toMatch(/expected status 200, got 404/);
    expect(r.out).toContain(`replay this run: npx replsim run ${f} --seed 3`);
  });

  it('exits 2 on an unknown key, naming the key, its line and a did-you-mean, and runs nothing', () => {
    const f = file(
      'typo.yaml',
      `name: typo
clusters:
  east: {}
steps:
  - request: GET sys/replication/dr/status
    on: east
    tokn: root
`,
    );
    const r = replsim('run', f, '--out', join(dir, 'typo-out'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:5: step 1: tokn: .*token`));
    expect(r.out).toBe('');
  });

  it('exits 2 on a file that is not valid YAML, with its line', () => {
    const f = file('bad.yaml', 'name: x\nclusters: { east: {\nsteps: []\n');
    const r = replsim('run', f);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.yaml:\d+:\d+/);
  });

  it('exits 2 on an unknown variable, naming the variable and the step', () => {
    const f = file(
      'var.yaml',
      `name: unknown variable
clusters:
  east: {}
steps:
  - request: POST sys/replication/dr/secondary/enable
    on: east
    body: { token: "\${westToken}" }
`,
    );
    const r = replsim('run', f);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/westToken/);
    expect(r.err).toMatch(/step 1: body\.token/);
  });

  it('runs several files and exits with the worst code, after a summary table', () => {
    const r = replsim('run', passing, join(dir, 'fail.yaml'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/2 files: 1 valid, 1 invalid, 0 not run/);
  });

  it('--json prints one JSON object per step and one per file', () => {
    const r = replsim('run', passing, '--json');
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ verdict: 'valid', valid: true });
  });

  it('exits 2 on misuse: a missing file, a bad seed, an unknown command', () => {
    expect(replsim('run', join(dir, 'nope.yaml')).code).toBe(2);
    expect(replsim('run', passing, '--seed', 'abc').code).toBe(2);
    expect(replsim('frobnicate').code).toBe(2);
    expect(replsim('replay', passing).code).toBe(2);
  });

  // npm ci builds the bundle (the prepare script); a checkout without it has nothing to compare.
  it.skipIf(!existsSync(join(__dirname, '..', '..', 'dist', 'cli', 'replsim.mjs')))('the bundle npm ci builds (dist/cli) runs scenarios exactly as the sources do', () => {
    const gallery = join(__dirname, '..', '..', 'scenarios', '02-dr-operation-token.yaml');
    expect(replsimWith({}, 'run', gallery, '--quiet', '--out', join(dir, 'bundled')).code).toBe(0);
    expect(replsimWith({ REPLSIM_NO_BUNDLE: '1' }, 'run', gallery, '--quiet', '--out', join(dir, 'sources')).code).toBe(0);
    expect(readFileSync(join(dir, 'bundled', 'history.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'sources', 'history.jsonl'), 'utf8'));
  });

  it('--help and --version exit 0', () => {
    expect(replsim('--help').code).toBe(0);
    expect(replsim('--version').out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('replsim in a pipeline', () => {
  it('stops quietly when the reader closes the pipe early (| head), with no EPIPE stack trace', () => {
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" run "${join(__dirname, '..', '..', 'scenarios')}" | head -1; exit \${PIPESTATUS[0]}`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stdout.split('\n')[0]).toMatch(/^▶ 01 /);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\(/);
    expect(r.status).toBe(0);
  });
});
