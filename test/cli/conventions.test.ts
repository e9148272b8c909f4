// Issue 18, "conventions" and "progress on long work": each fixed, each shown through the CLI's
// entry (main, in this process: what a command prints and exits with; a spawn costs half a second of
// CPU before the command starts), and standard input through the spawned command.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILING, inProcess, PASSING, replsim, scratch } from './helpers.js';

const s = scratch('replsim-conv-');
const passing = s.file('pass.yaml', PASSING);
const failing = s.file('fail.yaml', FAILING);
const ESC = '\u001b[';

describe('conventions', () => {
  it('no arguments is a usage error: help on stderr, exit 2', async () => {
    const r = await inProcess([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/Usage: replsim/);
  });

  it('--help has examples and lists the exit codes', async () => {
    const r = await inProcess(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Examples:\n\s+\$ replsim run/);
    expect(r.out).toMatch(/Exit codes[^\n]*\n\s+0 +valid[^\n]*\n\s+1 +invalid[^\n]*\n\s+2 +misuse[^\n]*\n\s+3 +unknown: a limit/);
    expect((await inProcess(['run', '--help'])).out).toMatch(/Exit codes/);
  });

  it('colour: FORCE_COLOR and --color turn it on in a pipe; NO_COLOR and --no-color keep it off', async () => {
    expect((await inProcess(['run', passing], { env: { NO_COLOR: undefined } })).out).not.toContain(ESC);
    expect((await inProcess(['run', passing], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } })).out).toContain(ESC);
    expect((await inProcess(['run', passing, '--color'])).out).toContain(ESC);
    expect((await inProcess(['run', passing, '--no-color'], { env: { FORCE_COLOR: '1' } })).out).not.toContain(ESC);
    expect((await inProcess(['check', '--runs', '2', '--color'])).out).toContain(ESC);
  });

  it('-q prints only what failed: nothing of passing files, not their summary rows', async () => {
    const quiet = await inProcess(['run', passing, failing, '-q']);
    expect(quiet.code).toBe(1);
    expect(quiet.out).not.toContain(passing);
    expect(quiet.out).toContain(failing);
    expect(quiet.out).toMatch(/2 files: 1 valid, 1 invalid, 0 not run/);
    const allGood = await inProcess(['run', 'scenarios/', '-q']);
    expect(allGood.code).toBe(0);
    expect(allGood.out.trim().split('\n')).toEqual([expect.stringMatching(/^\d+ files: \d+ valid, 0 invalid, 0 not run$/)]);
  });

  it('-q --json prints one object per failing file and the summary, no step objects', async () => {
    const r = await inProcess(['run', passing, failing, '-q', '--json']);
    expect(r.code).toBe(1);
    const objects = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(objects).toHaveLength(2);
    expect(objects[0]).toMatchObject({ file: failing, verdict: 'invalid' });
    expect(objects[1].summary).toMatchObject({ format: 1, counts: { files: 2, valid: 1, invalid: 1 } });
  });

  it('steps are numbered from 1 in load errors, run-time failures and narration alike', async () => {
    const typo = s.file('typo.yaml', 'name: t\nclusters:\n  east: {}\nsteps:\n  - wait: 1s\n  - wait: 1s\n    nmae: x\n');
    const load = await inProcess(['run', typo]);
    expect(load.code).toBe(2);
    expect(load.err).toMatch(/typo\.yaml:7:5: step 2: nmae: unknown key "nmae" in a wait step: did you mean "name"\?/);
    const run = await inProcess(['run', failing]);
    expect(run.out).toMatch(/^ 2\. GET sys\/no\/such\/path on east$/m);
    expect(run.out).toMatch(/• step 2 \(line 9\), GET sys\/no\/such\/path on east, failed/);
  });

  it('wait: 10 is refused with the units to choose from, since the format gives durations a unit', async () => {
    const f = s.file('bare-wait.yaml', 'name: w\nclusters:\n  east: {}\nsteps:\n  - wait: 10\n');
    const r = await inProcess(['run', f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bare-wait\.yaml:5:11: step 1: wait: 10 has no unit: write 10ms, 10s, 10m or 10h/);
    expect(r.out).toBe('');
  });

  it("a multi-line service error stays on one line of the narration", async () => {
    const r = await inProcess(['run', failing]);
    expect(r.out).toMatch(/→ 404 1 error occurred: \* unsupported path$/m);
    expect(r.out).toMatch(/✗ expected status 200, got 404: 1 error occurred: \* unsupported path$/m);
    expect(r.out).not.toMatch(/^\s*\* unsupported path/m);
  });

  it('run README.md says "not a scenario file" in one line', async () => {
    const r = await inProcess(['run', 'README.md']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual(['replsim: README.md: not a scenario file: scenario files end in .yaml, .yml or .json']);
    // The same text through standard input: one line naming the first YAML error.
    const piped = await inProcess(['run', '-'], { input: readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8') });
    expect(piped.code).toBe(2);
    expect(piped.err).toMatch(/^<stdin>:\d+:\d+: not a scenario file: it is not YAML with name, clusters and steps/);
    expect(piped.err.trim().split('\n')).toHaveLength(2);
  });

  it('run - reads a scenario from standard input', () => {
    const r = replsim(['run', '-', '--out', join(s.dir, 'stdin-out')], { input: PASSING });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/▶ write and read \(<stdin>, seed 1\)/);
    expect(JSON.parse(readFileSync(join(s.dir, 'stdin-out', 'results.json'), 'utf8')).file).toBe('<stdin>');
  });

  it('folders are searched recursively, in path order', async () => {
    s.file('tree/b/inner.yaml', PASSING);
    s.file('tree/a.yaml', PASSING);
    s.file('tree/b/deeper/z.yml', PASSING);
    s.file('tree/notes.txt', 'not a scenario');
    const r = await inProcess(['run', join(s.dir, 'tree')]);
    expect(r.code).toBe(0);
    const rows = r.out.split('\n').filter((l) => /^\S+\.(yaml|yml)\s+valid/.test(l)).map((l) => l.split(/\s+/)[0].slice(join(s.dir, 'tree').length + 1));
    expect(rows).toEqual(['a.yaml', 'b/deeper/z.yml', 'b/inner.yaml']);
  });

  it('a folder run takes .json files that open as a scenario and passes over others (a payload.json beside a runbook), listing them with -v', async () => {
    s.file('guide/01-runbook.yaml', PASSING);
    s.file('guide/payload.json', JSON.stringify({ data: { password: 's3cret' } }));
    s.file('guide/policy.json', '{ "path": ');
    s.file('guide/out/results.json', JSON.stringify({ format: 1, verdict: 'valid', steps: [] }));
    s.file('guide/02-as-json.json', JSON.stringify({ name: 'json runbook', clusters: { east: {} }, steps: [{ request: 'GET sys/health', on: 'east' }] }));
    const r = await inProcess(['run', join(s.dir, 'guide')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = r.out.split('\n').filter((l) => /^\S+\.(yaml|json)\s+valid/.test(l)).map((l) => l.split(/\s+/)[0].slice(join(s.dir, 'guide').length + 1));
    expect(rows).toEqual(['01-runbook.yaml', '02-as-json.json']);
    expect(r.out).not.toMatch(/skipped/);
    const verbose = await inProcess(['run', join(s.dir, 'guide'), '-v', '-q']);
    expect(verbose.code).toBe(0);
    const skipped = verbose.out.split('\n').filter((l) => l.startsWith('skipped ')).map((l) => l.slice('skipped '.length + join(s.dir, 'guide').length + 1));
    expect(skipped).toEqual([
      'out/results.json: replsim output (it has "format"), not a scenario',
      expect.stringMatching(/^payload\.json: JSON without "steps", not a scenario$/),
      expect.stringMatching(/^policy\.json: not JSON \(/),
    ]);
  });

  it('--seed 99999999999999999999 is refused as typed, not run as another number', async () => {
    const r = await inProcess(['run', passing, '--seed', '99999999999999999999']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--seed must be a whole number from -9007199254740991 to 9007199254740991, got 99999999999999999999/);
    const check = await inProcess(['check', '--seed', '99999999999999999999']);
    expect(check.code).toBe(2);
    expect(check.err).toMatch(/got 99999999999999999999/);
  });
});

describe('progress on long work', () => {
  it('explore --depth 7 --clusters 3 with a time limit stops with verdict unknown (exit 3), printing progress lines on stderr', async () => {
    const r = await inProcess(['explore', '--depth', '7', '--clusters', '3', '--time-limit', '3s']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^unknown: stopped by the time limit \(3\.0s\) at depth \d of 7/m);
    expect(r.out).not.toMatch(/^progress /m);
    const progress = r.err.split('\n').filter((l) => l.startsWith('progress '));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatch(/^progress [\d.]+s: depth \d, [\d,]+ states, [\d,]+ distinct, [\d,]+ queued, [\d,]+ states\/s$/);
  });

  it('explore --max-states stops with verdict unknown (exit 3), in --json too', async () => {
    const r = await inProcess(['explore', '--depth', '7', '--clusters', '3', '--max-states', '50']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/unknown: stopped by --max-states 50/);
    const j = await inProcess(['explore', '--depth', '7', '--clusters', '3', '--max-states', '50', '--json']);
    expect(j.code).toBe(3);
    expect(JSON.parse(j.out.trim().split('\n').at(-1)!)).toMatchObject({ type: 'verdict', verdict: 'unknown', stoppedBy: 'max-states', distinct: 50 });
    expect((await inProcess(['explore', '--depth', '3', '--clusters', '2', '--time-limit', '10'])).err).toMatch(/--time-limit takes a duration with its unit/);
  });

  it('check prints progress with the rate and the time left, on stderr', async () => {
    const r = await inProcess(['check', '--runs', '8', '--seed', '2', '--clusters', '2', '--steps', '5']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^ {2}2\/8 runs, [\d,]+ runs\/s, about [\d.ms ]+ left$/m);
    expect(r.out).not.toMatch(/runs\/s/);
  });

  it('the explore trace header gives a command that runs as typed (with --depth)', async () => {
    const out = join(s.dir, 'trace');
    const r = await inProcess(['explore', '--depth', '4', '--clusters', '2', '--forbid', 'two-primaries', '--out', out]);
    expect(r.code).toBe(1);
    const header = readFileSync(join(out, 'trace.yaml'), 'utf8').split('\n')[0];
    const command = /found by replsim explore (.*)\.$/.exec(header)?.[1];
    expect(command).toBe('--depth 4 --clusters 2 --seed 1 --forbid two-primaries');
    const again = await inProcess(['explore', ...command!.split(' '), '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out.trim().split('\n').at(-1)!).finding.id).toBe('two-primaries');
  });

  it('check prints a --replay command that replays the shrunk run', async () => {
    const args = ['check', '--runs', '200', '--seed', '1', '--clusters', '2', '--steps', '20', '--forbid', 'two-primaries'];
    const first = await inProcess(args);
    expect(first.code).toBe(1);
    const replay = /replay the shrunk run in fast-check: npx replsim (check .* --replay (\S+))$/m.exec(first.out);
    expect(replay).not.toBeNull();
    const again = await inProcess(replay![1].split(' '));
    expect(again.code).toBe(1);
    const commands = (out: string) => out.split('\n').filter((l) => /^ {2}[ \d]\d\. /.test(l));
    expect(commands(again.out)).toEqual(commands(first.out));
    expect((await inProcess([...args, '--replay', 'not-a-path'])).code).toBe(2);
    expect(existsSync(join(s.dir, 'nothing'))).toBe(false);
  });
});
