// `replsim explore` as a user runs it: the shortest trace printed, exit codes 1 (found), 0, 2.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replsim } from './property/helpers.js';

describe('replsim explore', () => {
  it('--depth 6 --clusters 3 --forbid two-primaries prints the shortest trace to two primaries and exits 1', async () => {
    const r = await replsim('explore', '--depth', '6', '--clusters', '3', '--forbid', 'two-primaries');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/states visited: [\d,]+; distinct \(up to renaming of clusters\): [\d,]+; depth reached: 4/);
    expect(r.out).toMatch(/invalid: shortest trace to hazard two-primaries \(4 commands\):/);
    expect(r.out).toMatch(/ 1\. enable \w+ as a (DR|performance) primary/);
    expect(r.out).toMatch(/ 4\. promote \w+ .*forced/);
    // The trace is printed as a scenario file.
    expect(r.out).toMatch(/^expect: pass$/m);
    expect(r.out).toMatch(/^steps:$/m);
  });

  it('--out writes the trace as DIR/trace.yaml, which replsim run fails with two-primaries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-explore-'));
    const r = await replsim('explore', '--depth', '5', '--clusters', '2', '--forbid', 'two-primaries', '--out', dir);
    expect(r.code).toBe(1);
    const file = join(dir, 'trace.yaml');
    expect(r.out).toContain(`npx replsim run ${file}`);
    expect(readFileSync(file, 'utf8')).toMatch(/^expect: pass$/m);
    const run = await replsim('run', file);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/hazard two-primaries/);
  });

  it('exits 0 when nothing is found within the depth', async () => {
    const r = await replsim('explore', '--depth', '2', '--clusters', '2', '--forbid', 'two-primaries');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/valid: no invariant violated and no forbidden hazard within depth 2/);
  });

  it('exits 2 on misuse: an unknown hazard (listing the valid ones), a bad cluster count, a missing --depth', async () => {
    const unknown = await replsim('explore', '--depth', '3', '--clusters', '3', '--forbid', 'three-primaries');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown hazard "three-primaries": --forbid takes two-primaries, newer-primary, forced-promotion/);
    expect((await replsim('explore', '--depth', '3', '--clusters', '9')).code).toBe(2);
    expect((await replsim('explore', '--clusters', '3')).code).toBe(2);
  });
});
