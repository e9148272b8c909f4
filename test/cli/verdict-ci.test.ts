// check, explore and merge on CI: --junit (one testcase, validated against the JUnit schema the
// project keeps), `::error` on GitHub Actions (on the counterexample file when one is written), and
// progress on stderr so that stdout is the result alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/run.js';
import { scratch } from './helpers.js';

const XSD = readFileSync(join(__dirname, '..', 'report', 'fixtures', 'junit.xsd'), 'utf8');
const s = scratch('replsim-verdict-ci-');

async function cli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdout: { isTTY: false }, stderr: { isTTY: false }, env: { NO_COLOR: '1', ...env } };
  const code = await main(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function valid(xml: string) {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [XSD] });
  return r.errors.map((e) => e.message);
}

describe('check, explore and merge for CI', () => {
  it('check --junit: a clean run is one passing testcase; a finding is a <failure>, with ::error on the counterexample', async () => {
    const clean = join(s.dir, 'clean.xml');
    const r = await cli(['check', '--runs', '4', '--seed', '2', '--clusters', '2', '--steps', '5', '--junit', clean]);
    expect(r.code).toBe(0);
    const xml = readFileSync(clean, 'utf8');
    expect(await valid(xml)).toEqual([]);
    expect(xml).toMatch(/<testcase name="--runs 4 --seed 2 --steps 5 --clusters 2" classname="replsim check"/);
    expect(xml).not.toMatch(/<failure/);

    const out = join(s.dir, 'found');
    const failing = join(s.dir, 'failing.xml');
    const f = await cli(['check', '--runs', '10', '--seed', '3', '--forbid', 'two-primaries', '--out', out, '--junit', failing], { GITHUB_ACTIONS: 'true' });
    expect(f.code).toBe(1);
    const fx = readFileSync(failing, 'utf8');
    expect(await valid(fx)).toEqual([]);
    expect(fx).toMatch(/<failure message="run \d+: [^"]*" type="hazard two-primaries">/);
    expect(f.out).toContain(`::error file=${join(out, 'counterexample.yaml')},line=1,title=replsim check%3A hazard two-primaries::`);
  }, 120_000);

  it('explore --junit: a finding is a <failure>; a search a limit stopped is <skipped>', async () => {
    const found = join(s.dir, 'explore.xml');
    const r = await cli(['explore', '--depth', '4', '--clusters', '2', '--forbid', 'two-primaries', '--junit', found], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(await valid(readFileSync(found, 'utf8'))).toEqual([]);
    expect(readFileSync(found, 'utf8')).toMatch(/<failure [^>]*type="hazard two-primaries"/);
    expect(r.out).toMatch(/^::error title=replsim explore%3A hazard two-primaries::/m);
    const limited = join(s.dir, 'limited.xml');
    const u = await cli(['explore', '--depth', '7', '--clusters', '3', '--max-states', '50', '--junit', limited]);
    expect(u.code).toBe(3);
    const ux = readFileSync(limited, 'utf8');
    expect(await valid(ux)).toEqual([]);
    expect(ux).toMatch(/<skipped message="stopped by --max-states 50/);
  }, 120_000);

  it('merge --junit reports the merged verdict of check shards', async () => {
    const dir = join(s.dir, 'shards');
    for (const i of [1, 2]) expect((await cli(['check', '--runs', '10', '--seed', '3', '--forbid', 'two-primaries', '--shard', `${i}/2`, '--out', dir])).code).toBeLessThanOrEqual(1);
    const xmlPath = join(s.dir, 'merge.xml');
    const m = await cli(['merge', dir, '--junit', xmlPath], { GITHUB_ACTIONS: 'true' });
    expect(m.code).toBe(1);
    const xml = readFileSync(xmlPath, 'utf8');
    expect(await valid(xml)).toEqual([]);
    expect(xml).toMatch(/classname="replsim merge"/);
    expect(xml).toMatch(/<failure [^>]*type="hazard two-primaries"/);
    expect(m.out).toMatch(/^::error title=replsim merge%3A hazard two-primaries::/m);
  }, 120_000);
});
