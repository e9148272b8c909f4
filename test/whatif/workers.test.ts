// `replsim whatif --workers N`: the plan's variants run on worker threads give the same variants,
// outcomes, counts and exported files as one thread (only the wall time and the paths written differ).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess, scratch } from '../cli/helpers.js';

const FRAGILE = 'scenarios/27-dr-runbook-fragile.yaml';

/** --json output without the wall time (which differs by nature). */
function lines(out: string): unknown[] {
  return out
    .trim()
    .split('\n')
    .map((l) => {
      const { wallMs: _wall, exported: _exported, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

describe('replsim whatif --workers', () => {
  it('--workers 2 gives what --workers 1 gives: every placement, the verdict, whatif.json and the exported variant', async () => {
    const dirs = [scratch('replsim-whatif-w1-').dir, scratch('replsim-whatif-w2-').dir];
    const [one, two] = [await inProcess(['whatif', FRAGILE, '--workers', '1', '--json', '--out', dirs[0]]), await inProcess(['whatif', FRAGILE, '--workers', '2', '--json', '--out', dirs[1]])];
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    const [a, b] = [lines(one.out), lines(two.out)];
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
    const exported = (a.at(-1) as { first: { n: number } }).first;
    expect(exported).toBeTruthy();
    const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8').split(dir).join('DIR');
    expect(read(dirs[1], 'whatif.json')).toEqual(read(dirs[0], 'whatif.json'));
    const variant = JSON.parse(one.out.trim().split('\n').at(-1)!).exported as string;
    const name = variant.slice(variant.lastIndexOf('/') + 1);
    expect(read(dirs[1], name)).toEqual(read(dirs[0], name));
  }, 180_000);

  it('pairs of faults (--faults 2, sampled) too, with the same pairs left out as unreachable', async () => {
    const args = ['whatif', FRAGILE, '--faults', '2', '--kinds', 'crash,partition', '--budget', '60', '--json'];
    const one = await inProcess([...args, '--workers', '1']);
    const two = await inProcess([...args, '--workers', '2']);
    expect(lines(two.out)).toEqual(lines(one.out));
    expect((lines(one.out).at(-1) as { pruned: { unreachable: number } }).pruned.unreachable).toBeGreaterThan(0);
  }, 180_000);
});
