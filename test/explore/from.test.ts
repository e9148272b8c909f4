// `check --from SCENARIO` and `explore --from SCENARIO`: every run starts from the world a team's
// scenario builds (its clusters and versions, then the state of its steps), the property model
// starts from the facts that world shows, a counterexample is the scenario's steps followed by the
// commands found and `replsim run` reproduces it, and workers and shards give the same result.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess } from '../cli/helpers.js';
import { capabilitiesFor } from '../../src/explore/commands/index.js';
import { buildStart, startModel, type FromScenario } from '../../src/explore/start.js';
import { runOnWorkers } from '../../src/explore/workers.js';
import type { RunSettings } from '../../src/explore/property-runs.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';

const S12 = 'scenarios/12-perf-dr-secondary-joins-set.yaml';
const from12: FromScenario = { file: S12, text: readFileSync(S12, 'utf8') };

const cli = inProcess;

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'replsim-from-'));
}

/** The verdict object of --json output, without what differs between runs by nature (wall time, shards). */
function verdict(out: string): Record<string, unknown> {
  const v = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
  for (const k of ['wallMs', 'shard', 'shards', 'command']) delete v[k];
  return v;
}

describe('the start a scenario builds', () => {
  it("is the scenario's world after its steps, and the model reads its roles, sets, clock and mounts from it", async () => {
    const built = await buildStart(from12);
    if (!built.ok) throw new Error(built.problem.lines.join('\n'));
    const start = built.start;
    expect(start.clusters).toEqual(['east', 'west', 'south']);
    expect(start.seed).toBe(12);
    // The same world `replsim run` ends with.
    const loaded = loadScenario(from12.text, S12);
    if (!loaded.ok) throw new Error('12 does not load');
    const run = await runScenario(loaded.scenario);
    expect(start.world.stateHash()).toBe(run.stateHash);

    const m = startModel(start, capabilitiesFor(), false);
    expect(m.now).toBe(start.world.state.now);
    expect(m.now).toBeGreaterThan(0);
    // After 12: west took east's place (DR primary and performance primary), east is its DR secondary
    // in waiting (demoted), south follows west in west's performance set.
    expect(m.roles.dr.west.role).toBe('primary');
    expect(m.roles.performance.west.role).toBe('primary');
    expect(m.roles.dr.east.role).not.toBe('disabled');
    expect(m.roles.dr.east.role).not.toBe('primary');
    expect(m.roles.performance.south).toMatchObject({ role: 'secondary.following', follows: 'west', set: m.roles.performance.west.set });
    expect(m.mounts?.east).toEqual(expect.arrayContaining(['secret/', 'billing/']));
    expect(m.mounts?.south).not.toContain('billing/');
  });
});

describe('replsim check --from', () => {
  it("runs on the scenario's clusters and versions; with forced promotion left out, --forbid forced-promotion is clean", async () => {
    const r = await cli(['check', '--from', S12, '--commands', 'safe', '--forbid', 'forced-promotion', '--runs', '30', '--seed', '1']);
    expect(r.err).not.toMatch(/error|mismatch/i);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^replsim check: 30 runs of up to 50 commands on the world scenarios\/12-perf-dr-secondary-joins-set\.yaml builds \(world seed 12\): east 1\.16\.0, west 1\.16\.0, south 1\.16\.0, commands drawn with seed 1$/m);
    expect(r.out).toMatch(/^ {2}forced-promotion +0 {2}\(forbidden\)$/m);
    expect(r.out).toMatch(/^valid: no invariant violated and no forbidden hazard in 30 runs$/m);
  }, 120_000);

  it("writes a counterexample that is the scenario's steps followed by the commands found, and replsim run reproduces it", async () => {
    const dir = scratch();
    const r = await cli(['check', '--from', S12, '--runs', '30', '--seed', '1', '--forbid', 'two-primaries', '--out', dir]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/invalid: hazard two-primaries in run 1/);
    expect(r.out).toMatch(/checked: replsim run on it fails with hazard two-primaries/);
    const text = readFileSync(join(dir, 'counterexample.yaml'), 'utf8');
    const loaded = loadScenario(text, 'counterexample.yaml');
    if (!loaded.ok) throw new Error(loaded.errors[0].message);
    const original = loadScenario(from12.text, S12);
    if (!original.ok) throw new Error('12 does not load');
    // Its clusters, seed and first steps are the scenario's, unchanged.
    expect(loaded.scenario.seed).toBe(12);
    expect(loaded.scenario.clusters).toEqual(original.scenario.clusters);
    expect(loaded.scenario.steps.slice(0, original.scenario.steps.length)).toEqual(original.scenario.steps);
    expect(loaded.scenario.steps.length).toBeGreaterThan(original.scenario.steps.length);
    expect(text).toMatch(/^# Starts from scenarios\/12-perf-dr-secondary-joins-set\.yaml/m);
    // The commands' saves never take a name the scenario saves (it saves westToken, opNonce, ...).
    const run = await runScenario(loaded.scenario);
    expect(run.verdict).toBe('invalid');
    expect(run.findings.some((f) => f.id === 'two-primaries')).toBe(true);
  }, 120_000);

  it('--workers 2 and shards merged give what one worker gives', async () => {
    // Seed 2 first fails at run 21 of 30 (checked below): shard 2 of 2 holds it.
    const args = ['check', '--from', S12, '--runs', '30', '--steps', '15', '--seed', '2', '--commands', 'safe', '--forbid', 'lost-writes'];
    const one = await cli([...args, '--workers', '1', '--json']);
    expect(one.code).toBe(1);
    const whole = verdict(one.out);
    expect((whole.finding as { run: number }).run).toBeGreaterThan(15);

    const settings: RunSettings = { runs: 30, steps: 15, seed: 2, forbid: ['lost-writes'], safe: true, from: from12 };
    const two = await runOnWorkers({ settings, workers: 2, chunk: 4 });
    expect(two.joined.finding?.run).toBe((whole.finding as { run: number }).run);
    expect(two.joined.finding?.words).toEqual((whole.finding as { commands: string[] }).commands);
    expect(two.joined.commands).toBe(whole.commands);

    const dir = scratch();
    const s1 = await cli([...args, '--shard', '1/2', '--out', dir, '--workers', '1']);
    const s2 = await cli([...args, '--shard', '2/2', '--out', dir, '--workers', '1']);
    expect([s1.code, s2.code]).toEqual([0, 1]);
    const shard = JSON.parse(readFileSync(join(dir, 'check-shard-1-of-2.json'), 'utf8')) as { settings: { from: { file: string; digest: string } } };
    expect(shard.settings.from).toEqual({ file: S12, digest: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const merged = await cli(['merge', dir, '--json']);
    expect(merged.code).toBe(1);
    expect(verdict(merged.out)).toEqual(whole);
  }, 180_000);

  it('refuses bad input with a clear error, runs nothing and writes nothing', async () => {
    const dir = scratch();
    const out = join(dir, 'out');
    const missing = await cli(['check', '--from', join(dir, 'nope.yaml'), '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/replsim check: --from .*nope\.yaml: cannot read it: no such file/);

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: x\nseed: 1\nclusters:\n  east: {}\n  west: {}\nsteps:\n  - request: GET sys/replication/status\n    on: east\n    tokn: none\n');
    const unloadable = await cli(['check', '--from', bad, '--out', out]);
    expect(unloadable.code).toBe(2);
    expect(unloadable.err).toMatch(/bad\.yaml:9:5: step 1: tokn: unknown key "tokn"/);

    const fails = join(dir, 'fails.yaml');
    writeFileSync(fails, 'name: x\nseed: 1\nclusters:\n  east: {}\n  west: {}\nsteps:\n  - request: GET sys/replication/dr/status\n    on: east\n    token: none\n    expect: { data: { mode: primary } }\n');
    for (const command of [['check'], ['explore', '--depth', '1']]) {
      const r = await cli([...command, '--from', fails, '--out', out]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/fails\.yaml: its baseline fails: the scenario does not pass as written, so no run starts from it/);
      expect(r.err).toMatch(/step 1 \(line 7\).*expected "primary", got "disabled"/);
    }

    const clusters = await cli(['check', '--from', S12, '--clusters', '4', '--out', out]);
    expect(clusters.code).toBe(2);
    expect(clusters.err).toMatch(/--clusters 4 and --from scenarios\/12-perf-dr-secondary-joins-set\.yaml disagree: the scenario's topology has 3 clusters the commands drive \(east, west, south\)/);

    const alone = join(dir, 'alone.yaml');
    writeFileSync(alone, 'name: x\nseed: 1\nclusters:\n  east: {}\n  west: { license: none }\nsteps: []\n');
    const one = await cli(['check', '--from', alone]);
    expect(one.code).toBe(2);
    expect(one.err).toMatch(/the commands drive 2 to 5 clusters with an enterprise licence; it has 1 \(east\)/);

    const neither = await cli(['explore', '--depth', '1']);
    expect(neither.code).toBe(2);
    expect(neither.err).toMatch(/--clusters <k>' not specified \(or --from SCENARIO/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('replsim explore --from', () => {
  it("explores from the scenario's world; the shortest trace is its steps then the commands, and replsim run reproduces it", async () => {
    const dir = scratch();
    const r = await cli(['explore', '--depth', '2', '--from', S12, '--forbid', 'two-primaries', '--out', dir]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^replsim explore: depth 2, the world scenarios\/12-perf-dr-secondary-joins-set\.yaml builds \(world seed 12\)/m);
    expect(r.out).toMatch(/invalid: shortest trace to hazard two-primaries \(1 command\)/);
    const loaded = loadScenario(readFileSync(join(dir, 'trace.yaml'), 'utf8'), 'trace.yaml');
    if (!loaded.ok) throw new Error(loaded.errors[0].message);
    const run = await runScenario(loaded.scenario);
    expect(run.findings.some((f) => f.id === 'two-primaries')).toBe(true);
    expect(run.verdict).toBe('invalid');
  }, 60_000);

  it('a clean search from the scenario: no model mismatch at depth 2', async () => {
    const r = await cli(['explore', '--depth', '2', '--from', S12, '--json']);
    expect(r.code).toBe(0);
    expect(verdict(r.out)).toMatchObject({ verdict: 'valid', clusters: 3 });
  }, 60_000);
});
