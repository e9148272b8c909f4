// `replsim check` as a user runs it: a clean run exits 0 with a summary of hazards met; a forbidden
// hazard is shrunk and written as a scenario that `replsim run` fails the same way (exit 1); misuse
// exits 2 and says what is valid.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/loader.js';
import { replsim } from './helpers.js';

describe('replsim check', () => {
  it('exits 0 when no invariant is violated, and lists the hazards met per id', async () => {
    const r = await replsim('check', '--runs', '60', '--seed', '1');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^replsim check: 60 runs of up to 50 commands on 2 to 5 clusters, seed 1$/m);
    expect(r.out).toMatch(/^ran 60 runs: [\d,]+ commands/m);
    expect(r.out).toMatch(/^hazards met:$/m);
    for (const id of ['two-primaries', 'newer-primary', 'forced-promotion']) expect(r.out).toMatch(new RegExp(`^  ${id} +\\d+`, 'm'));
    expect(r.out).toMatch(/invariants: 9 checked, none violated/);
    expect(r.out).toMatch(/valid: no invariant violated in 60 runs/);
  });

  it('--runs 2000 --seed 1 --forbid two-primaries --out DIR: shrinks, writes a scenario of at most 40 steps, exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-check-'));
    const r = await replsim('check', '--runs', '2000', '--seed', '1', '--forbid', 'two-primaries', '--out', dir);
    expect(r.code).toBe(1);
    const file = join(dir, 'counterexample.yaml');
    expect(r.out).toMatch(/invalid: hazard two-primaries in run \d+/);
    expect(r.out).toMatch(/shrunk to \d+ commands/);
    expect(r.out).toContain(`npx replsim run ${file}`);
    expect(r.out).toContain('checked: replsim run on it fails with hazard two-primaries');

    const loaded = loadScenario(readFileSync(file, 'utf8'), file);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.scenario.expect).toBe('pass');
    expect(loaded.scenario.steps.length).toBeLessThanOrEqual(40);

    const run = await replsim('run', file);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/hazard two-primaries/);
  });

  it('without --out, prints the counterexample as a scenario', async () => {
    const r = await replsim('check', '--runs', '2000', '--seed', '1', '--forbid', 'two-primaries');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^expect: pass$/m);
    expect(r.out).toMatch(/--out DIR writes it to DIR\/counterexample\.yaml/);
  });

  it('exits 2 on misuse, saying what is valid', async () => {
    const unknown = await replsim('check', '--forbid', 'split-brain');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown hazard "split-brain": --forbid takes two-primaries, newer-primary, forced-promotion/);
    expect((await replsim('check', '--clusters', '1')).code).toBe(2);
    expect((await replsim('check', '--clusters', '6')).code).toBe(2);
    expect((await replsim('check', '--runs', '0')).code).toBe(2);
    expect((await replsim('check', '--steps', 'many')).code).toBe(2);
    expect((await replsim('check', '--bogus')).code).toBe(2);
  });
});
