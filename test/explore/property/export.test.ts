// The counterexample export: a shrunk failing sequence becomes a format-1 scenario that loads with
// loadScenario and, run as `replsim run` runs it, fails the same way. Every command family exports
// to plain steps that rebuild exactly the same world (same state hash).
import { describe, expect, it } from 'vitest';
import { capabilitiesFor, clusterNames } from '../../../src/explore/commands/index.js';
import { scenarioObject, scenarioYaml } from '../../../src/explore/export.js';
import { recordRun, runProperty } from '../../../src/explore/property.js';
import fc from 'fast-check';
import { commandArbitraries } from '../../../src/explore/commands/index.js';
import { runExported } from './helpers.js';

describe('counterexample export', () => {
  const result = runProperty({ runs: 2000, seed: 1, forbid: ['two-primaries'] });
  const found = result.findings[0];

  it('a forbidden two-primaries is found, shrunk and exported in at most 40 steps', () => {
    expect(found).toMatchObject({ kind: 'hazard', id: 'two-primaries', reproduced: true });
    expect(found.words.length).toBeLessThanOrEqual(8);
    expect(found.scenario.steps.length).toBeLessThanOrEqual(40);
    expect(scenarioObject(found.scenario)).toMatchObject({ expect: 'pass', seed: 1 });
  });

  it('the exported file loads and replsim run fails on it with two-primaries', async () => {
    const run = await runExported(found.scenario);
    expect(run.verdict).toBe('invalid');
    expect(run.findings.map((f) => f.id)).toContain('two-primaries');
    expect(run.reasons.join('\n')).toMatch(/unexpected hazard two-primaries/);
    // Every step but the monitors' finding went as recorded.
    expect(run.steps.every((s) => s.ok)).toBe(true);
  });

  it('steps are named in operator words and save what later steps use', () => {
    const text = scenarioYaml(found.scenario);
    expect(found.scenario.steps.every((s) => typeof s.name === 'string' && s.name.length > 0)).toBe(true);
    expect(text).toMatch(/name: enable \w+ as a (DR|performance) primary/);
    expect(text).toMatch(/save: \{ \w+Token: wrap_info\.token \}/);
    // The promotion's token (a DR operation token, or a root token on a performance secondary) is generated and decoded.
    expect(text).toMatch(/decode-token: \$\{\w+(Op|Root)Encoded\}/);
    expect(text).toMatch(/request: POST sys\/replication\/(dr|performance)\/secondary\/promote/);
  });

  it('any random sequence exports to a scenario that rebuilds the same world, state hash for state hash', async () => {
    const caps = capabilitiesFor();
    const samples = fc.sample(fc.tuple(fc.integer({ min: 2, max: 5 }), fc.commands(commandArbitraries(caps), { maxCommands: 80, size: 'max' })), { seed: 11, numRuns: 20 });
    const families = new Set<string>();
    for (const [k, cmds] of samples) {
      const commands = [...cmds].map((c) => (c as unknown as { cmd: never }).cmd);
      const recorded = recordRun(k, 7, commands, { caps, steps: 40 });
      // Hazards may arise (unsafe runbooks); the export must replay them the same way regardless.
      if (recorded.error && !(recorded.error as Error).name.match(/FindingError/)) throw recorded.error;
      recorded.ran.forEach((c) => families.add(c.family));
      const run = await runExported({ name: 'replay', description: '', seed: 7, clusters: clusterNames(k), steps: recorded.steps });
      expect(run.steps.filter((s) => !s.ok).map((s) => s.failure)).toEqual([]);
      expect(run.stateHash).toBe(recorded.operator.world.stateHash());
    }
    // The samples went through most families (faults, waits, role changes, tokens).
    expect(families.size).toBeGreaterThanOrEqual(10);
  });
});
