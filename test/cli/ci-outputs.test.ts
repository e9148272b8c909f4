// Issue 18, "results a CI system can read": results.json format 1 with step lines and times,
// summary.json for several files, --junit, GitHub annotations, check --json and explore --json.
// Every test spawns the real CLI and checks its exit code and output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILING, PASSING, replsim, scratch } from './helpers.js';

const s = scratch('replsim-ci-');
const passing = s.file('pass.yaml', PASSING);
const failing = s.file('fail.yaml', FAILING);

describe('results a CI system can read', () => {
  it('results.json has format 1, and each step its file line, wall time and virtual time', () => {
    const out = join(s.dir, 'out-one');
    const r = replsim(['run', failing, '--out', out]);
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.format).toBe(1);
    expect(results.steps.map((st: { index: number; line: number }) => [st.index, st.line])).toEqual([
      [1, 6],
      [2, 9],
    ]);
    for (const st of results.steps) {
      expect(st.wallMs).toBeGreaterThanOrEqual(0);
      expect(st.virtual).toEqual({ atMs: expect.any(Number), durationMs: expect.any(Number) });
    }
    expect(typeof results.wallMs).toBe('number');
    expect(typeof results.virtualMs).toBe('number');
    // The run-time failure names the step from 1 and its line.
    expect(results.reasons[0]).toMatch(/^step 2 \(line 9\), GET sys\/no\/such\/path on east, failed: expected status 200, got 404/);
    expect(r.out).toMatch(/step 2 \(line 9\)/);
  });

  it('virtual times follow the waits', () => {
    const f = s.file('waits.yaml', 'name: waits\nclusters:\n  east: {}\nsteps:\n  - wait: 1s\n  - wait: 2m\n');
    const out = join(s.dir, 'out-waits');
    expect(replsim(['run', f, '--out', out]).code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.steps.map((st: { virtual: unknown }) => st.virtual)).toEqual([
      { atMs: 0, durationMs: 1000 },
      { atMs: 1000, durationMs: 120_000 },
    ]);
    expect(results.virtualMs).toBe(121_000);
  });

  it('a run of several files writes summary.json beside their sub-folders', () => {
    const out = join(s.dir, 'out-several');
    const r = replsim(['run', passing, failing, '--out', out]);
    expect(r.code).toBe(1);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ format: 1, exit: 1, counts: { files: 2, valid: 1, invalid: 1, notRun: 0 } });
    expect(summary.files.map((f: { results: string; verdict: string }) => [f.results, f.verdict])).toEqual([
      ['pass/results.json', 'valid'],
      ['fail/results.json', 'invalid'],
    ]);
    expect(JSON.parse(readFileSync(join(out, 'fail', 'results.json'), 'utf8')).verdict).toBe('invalid');
  });

  it('on GitHub Actions, each failure is an ::error annotation with file and line', () => {
    const r = replsim(['run', failing, passing], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(1);
    const annotations = r.out.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations).toHaveLength(1);
    // Property values escape ":" and ","; the message keeps its text on one line.
    expect(annotations[0]).toMatch(new RegExp(`^::error file=${failing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/:/g, '%3A')},line=9,title=replsim%3A step::step 2 \\(line 9\\)`));
    // Not on GitHub Actions: no annotations.
    expect(replsim(['run', failing]).out).not.toMatch(/^::error/m);
    // With --json, stdout stays JSON lines: the annotations go to stderr, which the runner reads too.
    const json = replsim(['run', failing, '--json'], { env: { GITHUB_ACTIONS: 'true' } });
    for (const l of json.out.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    expect(json.err).toMatch(/^::error file=.*,line=9,/m);
  });

  it('an invalid file is annotated at the line of its error', () => {
    const bad = s.file('typo.yaml', 'name: typo\nclusters:\n  east: {}\nsteps:\n  - wait: 1s\n    nme: x\n');
    const r = replsim(['run', bad], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^::error file=.*typo\.yaml,line=6,title=replsim%3A invalid-file::step 1: nme: unknown key/m);
  });

  it('check --json prints progress objects and one verdict object', () => {
    const r = replsim(['check', '--runs', '20', '--seed', '2', '--clusters', '2', '--steps', '10', '--json']);
    expect(r.code).toBe(0);
    const objects = r.out.trim().split('\n').map((l) => JSON.parse(l));
    const verdict = objects.at(-1);
    expect(verdict).toMatchObject({ type: 'verdict', verdict: 'valid', runs: 20, seed: 2, finding: null });
    for (const o of objects.slice(0, -1)) expect(o.type).toBe('progress');
  });

  it('explore --json prints progress objects and one verdict object', () => {
    const r = replsim(['explore', '--depth', '2', '--clusters', '2', '--json']);
    expect(r.code).toBe(0);
    const objects = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(objects.at(-1)).toMatchObject({ type: 'verdict', verdict: 'valid', depth: 2, depthReached: 2, stoppedBy: null, finding: null });
    expect(objects.at(-1).distinct).toBeGreaterThan(1);
  });
});
