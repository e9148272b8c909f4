// A multi-file run survives a bad file, and keeps same-named files' results apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { outFolders, runCommand, type Io } from '../../src/cli/run.js';
import { FAILING, PASSING, replsim, scratch } from './helpers.js';

// A file whose run throws inside the simulator (a replsim bug, which a user's file must never turn
// into a stopped run): the runner is wrapped so that one scenario name throws from its first step.
vi.mock('../../src/scenario/runner.js', async (original) => {
  const real = await original<typeof import('../../src/scenario/runner.js')>();
  return {
    ...real,
    runScenario: (scenario: { name: string }, options: unknown) => {
      if (scenario.name === 'throws') return Promise.reject(new TypeError("Cannot read properties of undefined (reading 'role')\n    at somewhere"));
      return real.runScenario(scenario as never, options as never);
    },
  };
});

const s = scratch('replsim-robust-');

function memoryIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdout: {}, env: {} };
  return { io, out, err };
}

describe('one bad file does not stop a multi-file run', () => {
  it('a file whose run throws is reported on one line; the later files run and the summary prints', async () => {
    const throws = s.file('a-throws.yaml', PASSING.replace('name: write and read', 'name: throws'));
    const later = s.file('b-later.yaml', PASSING);
    const out = join(s.dir, 'out-throws');
    const { io, out: lines, err } = memoryIo();
    const code = await runCommand([throws, later], { out }, io);
    expect(code).toBe(2);
    expect(err).toEqual([expect.stringMatching(/a-throws\.yaml: not run to the end: replsim failed \(please report, with this file\): Cannot read properties of undefined \(reading 'role'\) at somewhere$/)]);
    expect(lines.join('\n')).toMatch(/VALID: 2 steps/);
    expect(lines.join('\n')).toMatch(/2 files: 1 valid, 0 invalid, 1 not run/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.files.map((f: { verdict: string }) => f.verdict)).toEqual(['not-run', 'valid']);
  });

  it('an invalid, a missing and an unreadable-as-scenario file are each reported, and the others still run (spawned)', () => {
    const invalid = s.file('c/1-invalid.yaml', 'name: x\nclusters: {}\nsteps: []\n');
    const good = s.file('c/2-good.yaml', PASSING);
    const bad = s.file('c/3-failing.yaml', FAILING);
    const r = replsim(['run', invalid, join(s.dir, 'missing.yaml'), 'README.md', good, bad]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/VALID: 2 steps/);
    expect(r.out).toMatch(/INVALID: 2 steps/);
    expect(r.out).toMatch(/5 files: 1 valid, 1 invalid, 3 not run/);
    expect(r.err).toMatch(/missing\.yaml: no such file or folder/);
    expect(r.err).toMatch(/1-invalid\.yaml: not run: \d+ errors? in the file/);
  });
});

describe('same-named files keep their results apart', () => {
  it('replsim run a/x.yaml b/x.yaml --out out writes out/a/x and out/b/x', () => {
    const a = s.file('same/a/x.yaml', PASSING);
    const b = s.file('same/b/x.yaml', FAILING);
    const out = join(s.dir, 'out-same');
    const r = replsim(['run', a, b, '--out', out]);
    expect(r.code).toBe(1);
    expect(JSON.parse(readFileSync(join(out, 'a', 'x', 'results.json'), 'utf8'))).toMatchObject({ file: a, verdict: 'valid' });
    expect(JSON.parse(readFileSync(join(out, 'b', 'x', 'results.json'), 'utf8'))).toMatchObject({ file: b, verdict: 'invalid' });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.files.map((f: { results: string }) => f.results)).toEqual(['a/x/results.json', 'b/x/results.json']);
  });

  it('folders are deterministic: below the shared folder, extension kept only where names still clash, repeats numbered', () => {
    expect(outFolders(['scenarios/01-a.yaml', 'scenarios/02-b.yaml'])).toEqual(['01-a', '02-b']);
    expect(outFolders(['p/a/x.yaml', 'p/b/x.yaml'])).toEqual(['a/x', 'b/x']);
    expect(outFolders(['p/x.yaml', 'p/x.json', 'p/y.yaml'])).toEqual(['x.yaml', 'x.json', 'y']);
    expect(outFolders(['p/x.yaml', 'p/x.yaml', '<stdin>'])).toEqual(['x.yaml', 'x.yaml~2', 'stdin']);
  });
});
