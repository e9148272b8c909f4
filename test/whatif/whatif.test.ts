// `replsim whatif`: the gallery's two runbooks of one planned failover (26 robust, 27 fragile), the
// outputs CI reads (JSON, JUnit against the schema the project keeps, ::error), the exported variant
// that `replsim run` reproduces, determinism across shards, and misuse that writes nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/run.js';
import { scratch } from '../cli/helpers.js';

const ROBUST = 'scenarios/26-dr-runbook-robust.yaml';
const FRAGILE = 'scenarios/27-dr-runbook-fragile.yaml';
const XSD = readFileSync(join(__dirname, '..', 'report', 'fixtures', 'junit.xsd'), 'utf8');
const s = scratch('replsim-whatif-');

async function whatif(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdout: { isTTY: false }, env: { NO_COLOR: '1', ...env } };
  const code = await main(['whatif', ...args], io);
  return { code, out: out.join('\n'), err: err.join('\n'), lines: out };
}

describe('replsim whatif on the gallery runbooks', () => {
  it('the robust runbook (26) exits 0 and says how many placements it tried and how many stopped at a guard', async () => {
    const r = await whatif([ROBUST]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/(\d+) placements tried: 0 unsafe, (\d+) stopped at a guard, (\d+) ok/);
    expect(r.out).toMatch(/robust: no placement unsafe \(\d+ stopped/);
    // Progress is on stderr, never stdout.
    expect(r.err).toMatch(/variants/);
    expect(r.out).not.toMatch(/\d+\/\d+ variants/);
    // --strict fails on a placement stopped at a guard.
    expect((await whatif([ROBUST, '--strict', '--kinds', 'partition'])).code).toBe(1);
  }, 120_000);

  it('the fragile runbook (27) exits 1, names the step and fault, and its exported variant fails under replsim run the same way', async () => {
    const dir = join(s.dir, 'fragile');
    const r = await whatif([FRAGILE, '--out', dir], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    // The first unsafe placement in plan order: the link slowed during the last write (step 7), whose WAL then arrives after the pause.
    expect(r.out).toMatch(/fragile: \d+ placements? unsafe; the first: slow east\|west before step 7/);
    expect(r.out).toMatch(/hazard lost-writes/);
    // The annotation sits on the line of step 7 of the file.
    const step7 = readFileSync(FRAGILE, 'utf8').split('\n').findIndex((l) => l.includes('a client writes the last change')) + 1;
    expect(r.out).toContain(`::error file=${FRAGILE},line=${step7},title=replsim whatif%3A unsafe::`);
    const yaml = readdirSync(dir).filter((f) => /^whatif-\d+\.yaml$/.test(f));
    expect(yaml).toHaveLength(1);
    expect(r.out).toMatch(/checked: replsim run on it fails \(unexpected hazard lost-writes/);
    const run = await main(['run', join(dir, yaml[0]), '-q'], { out: () => {}, err: () => {}, stdout: {}, env: {} });
    expect(run).toBe(1);
    const text = readFileSync(join(dir, yaml[0]), 'utf8');
    // The shortest fatal variant: a client write just before the demotion (one step inserted).
    expect(text).toMatch(/^# Written by replsim whatif .* client write to the primary before step 9\.$/m);
    expect(text).toMatch(/name: "whatif: a client writes to east, the primary"\n {4}request: POST secret\/data\/whatif-1/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<td class="unsafe"');
    expect(html).toContain('data-variants=');
  }, 120_000);

  it('--json is one object per placement, then a verdict object; --junit validates against the JUnit schema', async () => {
    const junit = join(s.dir, 'junit/whatif.xml');
    const r = await whatif([FRAGILE, '--kinds', 'partition,client-write', '--json', '--junit', junit]);
    expect(r.code).toBe(1);
    const objects = r.lines.map((l) => JSON.parse(l) as { type: string; outcome?: string; n?: number });
    const verdict = objects.at(-1)!;
    expect(verdict).toMatchObject({ type: 'verdict', verdict: 'fragile' });
    const placements = objects.slice(0, -1);
    expect(placements.every((o) => o.type === 'placement')).toBe(true);
    expect(placements.map((p) => p.n)).toEqual(placements.map((_, i) => i + 1));
    expect((verdict as unknown as { placements: number }).placements).toBe(placements.length);
    const xml = readFileSync(junit, 'utf8');
    const v = await validateXML({ xml: [{ fileName: 'whatif.xml', contents: xml }], schema: [XSD] });
    expect(v.errors.map((e) => e.message)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(placements.length);
    expect(xml.match(/<failure /g)).toHaveLength(placements.filter((p) => p.outcome === 'unsafe').length);
  }, 120_000);

  it('shards give the variants of the whole run, with the same numbers and outcomes', async () => {
    const whole = await whatif([FRAGILE, '--kinds', 'partition', '--json']);
    const all = whole.lines.slice(0, -1);
    const parts: string[] = [];
    for (const i of [1, 2, 3]) {
      const r = await whatif([FRAGILE, '--kinds', 'partition', '--json', '--shard', `${i}/3`, '--out', join(s.dir, `shards/${i}`)]);
      parts.push(...r.lines.slice(0, -1));
      expect(existsSync(join(s.dir, `shards/${i}/whatif-shard-${i}-of-3.json`))).toBe(true);
    }
    expect(parts).toEqual(all);
    // merge joins them into the unsharded verdict, and writes the shortest fatal variant again.
    const merged = join(s.dir, 'merged');
    const m = await main(['merge', join(s.dir, 'shards'), '--out', merged], { out: () => {}, err: () => {}, stdout: {}, env: {} });
    expect(m).toBe(1);
    const single = await whatif([FRAGILE, '--kinds', 'partition', '--out', join(s.dir, 'single')]);
    const name = readdirSync(join(s.dir, 'single')).find((f) => f.startsWith('whatif-') && f.endsWith('.yaml'))!;
    expect(readFileSync(join(merged, name), 'utf8')).toBe(readFileSync(join(s.dir, 'single', name), 'utf8').replaceAll(join(s.dir, 'single'), merged));
    expect(single.code).toBe(1);
    // A missing shard is refused.
    const partial = await main(['merge', join(s.dir, 'shards', '1'), join(s.dir, 'shards', '2')], { out: () => {}, err: () => {}, stdout: {}, env: {} });
    expect(partial).toBe(2);
  }, 120_000);

  it('--faults 2 says whether it tried every pair or a seeded sample, and the same seed samples the same pairs', async () => {
    const exhaustive = await whatif([ROBUST, '--faults', '2', '--kinds', 'retry']);
    expect(exhaustive.out).toMatch(/all \d+ pairs \(exhaustive\)/);
    const a = await whatif([ROBUST, '--faults', '2', '--kinds', 'partition,retry', '--budget', '50', '--json']);
    const b = await whatif([ROBUST, '--faults', '2', '--kinds', 'partition,retry', '--budget', '50', '--json']);
    const verdict = JSON.parse(a.lines.at(-1)!) as { pairs: { mode: string; total: number } };
    expect(verdict.pairs.mode).toBe('sampled');
    expect(verdict.pairs.total).toBeGreaterThan(50);
    expect(a.out).toBe(b.out.replace(/"wallMs":\d+/, a.out.match(/"wallMs":\d+/)![0]));
  }, 180_000);
});

describe('a slow link', () => {
  it('is tried on every link that carries messages; the fragile runbook is unsafe under it, the robust one is not', async () => {
    const dir = join(s.dir, 'slow');
    const fragile = await whatif([FRAGILE, '--kinds', 'slow', '--out', dir, '--json']);
    expect(fragile.code).toBe(1);
    const objects = fragile.lines.map((l) => JSON.parse(l) as { type: string; outcome?: string; faults?: { kind: string; fault: string; step: number }[]; exported?: string });
    const placements = objects.filter((o) => o.type === 'placement');
    expect(placements.length).toBeGreaterThan(20);
    expect(placements.every((p) => p.faults!.every((f) => f.kind === 'slow' && f.fault === 'slow east|west'))).toBe(true);
    // Slowed just before the last write (step 7): its WAL is still on its way when east is demoted.
    const unsafe = placements.filter((p) => p.outcome === 'unsafe');
    expect(unsafe.map((p) => p.faults![0].step)).toEqual([7]);
    const exported = objects.at(-1)!.exported!;
    const text = readFileSync(exported, 'utf8');
    expect(text).toMatch(/slow: \{ link: \[ east, west \], latency: 5s \}/);
    expect(text).toMatch(/heal: \[ east, west \]/);
    const run = await main(['run', exported, '-q'], { out: () => {}, err: () => {}, stdout: {}, env: {} });
    expect(run).toBe(1);
    const robust = await whatif([ROBUST, '--kinds', 'slow']);
    expect(robust.code).toBe(0);
    expect(robust.out).toMatch(/robust: no placement unsafe/);
  }, 120_000);
});

describe('replsim whatif refuses bad input and writes nothing', () => {
  it('an unknown fault kind or hazard lists the valid ones with a did-you-mean (exit 2)', async () => {
    const dir = join(s.dir, 'misuse');
    const k = await whatif([ROBUST, '--kinds', 'partiton', '--out', dir]);
    expect(k.code).toBe(2);
    expect(k.err).toMatch(/unknown fault kind "partiton": did you mean "partition"\? \(kinds: crash, partition/);
    const h = await whatif([ROBUST, '--forbid', 'two-primary', '--out', dir]);
    expect(h.code).toBe(2);
    expect(h.err).toMatch(/unknown hazard "two-primary": did you mean "two-primaries"\?/);
    expect(existsSync(dir)).toBe(false);
  });

  it('a file that does not load is exit 2 with its line and column', async () => {
    const f = s.file('bad.yaml', 'name: x\nclusters:\n  east: {}\nsteps:\n  - wait: 10\n');
    const r = await whatif([f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.yaml:5:\d+: /);
  });

  it('a runbook that fails as written is exit 1, and no variant runs', async () => {
    const f = s.file('fails.yaml', 'name: x\nclusters:\n  east: {}\nsteps:\n  - request: GET sys/replication/dr/status\n    on: east\n    expect: { status: 404 }\n');
    const r = await whatif([f]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/baseline fails/);
    expect(r.out).not.toMatch(/placements tried/);
  });
});

describe('tutorial chapter 09', () => {
  it('shows the matrix replsim whatif prints now for the fragile runbook', async () => {
    const text = readFileSync(join(__dirname, '..', '..', 'docs', 'tutorial', '09-what-if.md'), 'utf8');
    const block = /<!-- replsim:whatif (\S+) -->\n```\n([\s\S]*?)```\n<!-- \/replsim:whatif -->/.exec(text);
    expect(block).not.toBeNull();
    const r = await whatif([block![1]]);
    const start = r.lines.findIndex((l) => l.startsWith('step '));
    const end = r.lines.findIndex((l, i) => i > start && l === '');
    expect(r.lines.slice(start, end).join('\n') + '\n').toBe(block![2]);
  }, 120_000);
});
