// `replsim check --workers N`, `check --shard I/N`, `explore --shard I/N` and `replsim merge`, with
// the arguments a CI job gives them: any number of workers, and shards merged, give the unsharded
// run's result; merge refuses shards of different runs with exit 2 and says which setting differs.
// Run in this process: what is checked is what the commands compute and print, and some 30 spawns
// cost some 15 s of start-up (the spawned command is covered by cli.test.ts and conventions.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess, scratch } from './helpers.js';

/** The last line of --json output (the verdict), without the wall time and shard, which differ between runs by nature. */
function verdict(out: string): Record<string, unknown> {
  const v = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
  for (const k of ['wallMs', 'shard', 'shards', 'command']) delete v[k];
  return v;
}

const FAILING = ['check', '--runs', '40', '--seed', '1', '--clusters', '3', '--forbid', 'two-primaries'];

describe('replsim check --workers', () => {
  it('--workers 2 prints the verdict --workers 1 prints, the shrunk counterexample of a forced failure included', async () => {
    const one = await inProcess([...FAILING, '--workers', '1', '--json']);
    const two = await inProcess([...FAILING, '--workers', '2', '--json']);
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    expect(verdict(two.out)).toEqual(verdict(one.out));
    expect((verdict(one.out).finding as { id: string }).id).toBe('two-primaries');
  });

  it('refuses --workers 0', async () => {
    const r = await inProcess(['check', '--runs', '1', '--workers', '0']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--workers takes a whole number from 1 to 256, got 0/);
  });
});

describe('replsim check --shard and merge', () => {
  it('shards 1/2 and 2/2 merged equal the unsharded run (a finding in shard 2: counts up to it, its counterexample)', async () => {
    const dir = scratch('replsim-shards-').dir;
    // 40 runs: shard 1 runs 1-20, shard 2 runs 21-40; seed 12 first fails at run 26 (checked below).
    const args = ['check', '--runs', '40', '--seed', '12', '--clusters', '3', '--steps', '30', '--forbid', 'two-primaries'];
    const whole = await inProcess([...args, '--json', '--workers', '1']);
    const s1 = await inProcess([...args, '--shard', '1/2', '--out', dir, '--workers', '1']);
    const s2 = await inProcess([...args, '--shard', '2/2', '--out', dir, '--workers', '2']);
    expect(s1.out).toMatch(/^shard 1 of 2: runs 1 to 20$/m);
    expect(s2.out).toMatch(/^shard 2 of 2: runs 21 to 40$/m);
    expect(existsSync(join(dir, 'check-shard-1-of-2.json'))).toBe(true);
    expect((verdict(whole.out).finding as { run: number }).run).toBeGreaterThan(20);
    expect(s1.code).toBe(0);
    expect(s2.code).toBe(1);
    const merged = await inProcess(['merge', dir, '--json']);
    expect(merged.code).toBe(whole.code);
    expect(verdict(merged.out)).toEqual(verdict(whole.out));
    const text = await inProcess(['merge', dir]);
    expect(text.code).toBe(whole.code);
    expect(text.out).toMatch(/^replsim merge: 2 shards of replsim check --runs 40 --seed 12 --clusters 3 --steps 30 --forbid two-primaries$/m);
  });

  it('a clean run: merged counts equal the unsharded counts, exit 0', async () => {
    const dir = scratch('replsim-shards-').dir;
    const args = ['check', '--runs', '30', '--seed', '2', '--clusters', '2', '--steps', '15', '--workers', '1'];
    const whole = await inProcess([...args, '--json']);
    for (const s of ['1/3', '2/3', '3/3']) expect((await inProcess([...args, '--shard', s, '--out', dir])).code).toBe(0);
    const merged = await inProcess(['merge', dir, '--json']);
    expect(merged.code).toBe(0);
    const v = verdict(merged.out);
    expect(v).toEqual(verdict(whole.out));
    expect(v.runs).toBe(30);
  });

  it('merge refuses shards of different seeds, runs, missing or duplicated shards and files that are not shard results, with exit 2', async () => {
    const { dir, file } = scratch('replsim-merge-');
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const base = ['check', '--runs', '6', '--clusters', '2', '--steps', '5', '--workers', '1'];
    expect((await inProcess([...base, '--seed', '1', '--shard', '1/2', '--out', a])).code).toBe(0);
    expect((await inProcess([...base, '--seed', '2', '--shard', '2/2', '--out', b])).code).toBe(0);
    const seeds = await inProcess(['merge', a, b]);
    expect(seeds.code).toBe(2);
    expect(seeds.err).toMatch(/^replsim merge: .*check-shard-1-of-2\.json and .*check-shard-2-of-2\.json were run with different settings \(--seed 1 vs 2\): merge joins the shards of one run$/m);

    const missing = await inProcess(['merge', a]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/shard 2 of 2 is missing: merge needs every shard's result/);

    // A budget changed by hand: the runs differ.
    const edited = JSON.parse(readFileSync(join(b, 'check-shard-2-of-2.json'), 'utf8'));
    edited.settings.seed = 1;
    edited.settings.runs = 8;
    const c = file('c/check-shard-2-of-2.json', JSON.stringify(edited));
    const runs = await inProcess(['merge', a, c]);
    expect(runs.code).toBe(2);
    expect(runs.err).toMatch(/different settings \(--runs 6 vs 8\)/);

    const twice = await inProcess(['merge', a, join(a, 'check-shard-1-of-2.json'), file('d/check-shard-1-of-2.json', readFileSync(join(a, 'check-shard-1-of-2.json'), 'utf8'))]);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/shard 1 of 2 is given twice/);

    const junk = file('e/check-shard-1-of-1.json', JSON.stringify({ replsim: 'check-shard', version: 1, settings: { __proto__: 1 } }));
    const bad = await inProcess(['merge', junk]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^replsim merge: .*check-shard-1-of-1\.json: at settings\.runs: required$/m);
    expect(bad.err).not.toMatch(/at .*\.ts:\d+/);

    writeFileSync(join(dir, 'x.json'), 'not json');
    const notJson = await inProcess(['merge', join(dir, 'x.json')]);
    expect(notJson.code).toBe(2);
    expect(notJson.err).toMatch(/x\.json: not a shard result \(not JSON/);
  });

  it('--shard needs --out and a shard within N; --replay refuses --shard', async () => {
    const noOut = await inProcess(['check', '--runs', '4', '--shard', '1/2']);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toMatch(/--shard needs --out DIR/);
    const bad = await inProcess(['check', '--runs', '4', '--shard', '3/2', '--out', scratch('replsim-s-').dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--shard 3\/2: I must be from 1 to 2/);
    const word = await inProcess(['explore', '--depth', '1', '--clusters', '2', '--shard', 'half', '--out', scratch('replsim-s-').dir]);
    expect(word.code).toBe(2);
    expect(word.err).toMatch(/--shard takes I\/N/);
  });
});

describe('replsim explore --shard and merge', () => {
  it('shards 1/2 and 2/2 merged find a trace as short as the unsharded search, and cover the same role combinations', async () => {
    const dir = scratch('replsim-explore-shards-').dir;
    const args = ['explore', '--depth', '4', '--clusters', '2', '--forbid', 'two-primaries'];
    const whole = verdict((await inProcess([...args, '--json'])).out);
    for (const s of ['1/2', '2/2']) expect((await inProcess([...args, '--shard', s, '--out', dir])).code).toBeLessThan(2);
    const merged = await inProcess(['merge', dir, '--json']);
    expect(merged.code).toBe(1);
    const m = verdict(merged.out);
    expect(m.verdict).toBe('invalid');
    expect((m.finding as { trace: string[] }).trace.length).toBe((whole.finding as { trace: string[] }).trace.length);
    expect((m.finding as { id: string }).id).toBe('two-primaries');

    const cleanDir = scratch('replsim-explore-shards-').dir;
    const clean = ['explore', '--depth', '3', '--clusters', '2'];
    const wholeClean = verdict((await inProcess([...clean, '--json'])).out);
    for (const s of ['1/3', '2/3', '3/3']) expect((await inProcess([...clean, '--shard', s, '--out', cleanDir])).code).toBe(0);
    const mc = await inProcess(['merge', cleanDir, '--json']);
    expect(mc.code).toBe(0);
    const v = verdict(mc.out);
    expect(v.verdict).toBe('valid');
    expect(v.roleVectors).toEqual(wholeClean.roleVectors);
    // Shards overlap below the first level; merge counts each state once, as the unsharded search does.
    expect(v.distinct).toBe(wholeClean.distinct);
    expect(v.visited).toBe(wholeClean.visited);
  });

  it('counts a state reached under first-level states of two shards once (the union, not the sum)', async () => {
    const dir = scratch('replsim-explore-overlap-').dir;
    const args = ['explore', '--depth', '3', '--clusters', '3'];
    const whole = verdict((await inProcess([...args, '--json'])).out);
    const shards: Record<string, unknown>[] = [];
    for (const s of ['1/2', '2/2']) {
      const r = await inProcess([...args, '--shard', s, '--out', dir, '--json']);
      expect(r.code).toBe(0);
      shards.push(verdict(r.out));
    }
    // The shards do overlap: their own counts add up to more than the whole search's.
    expect((shards[0].distinct as number) + (shards[1].distinct as number)).toBeGreaterThan(whole.distinct as number);
    const merged = verdict((await inProcess(['merge', dir, '--json'])).out);
    expect(merged.distinct).toBe(whole.distinct);
    expect(merged.visited).toBe(whole.visited);
  });
});
