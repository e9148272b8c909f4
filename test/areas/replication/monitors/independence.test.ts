// The monitors keep their own model of what a secondary must hold (monitors/replica.ts): they share
// no code with the replication area's scope and filters. Proven here by breaking the simulator's own
// helpers (vi.mock over the real modules, switched per test) and watching the monitors catch it:
// with a monitor that judged the simulator with the simulator's functions, the bug would be invisible.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadScenario } from '../../../../src/scenario/loader.js';
import { runScenario } from '../../../../src/scenario/runner.js';

const fault = vi.hoisted(() => ({ scope: false, filter: false }));

vi.mock('../../../../src/areas/replication/scope.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../src/areas/replication/scope.js')>();
  return {
    ...real,
    // The injected bug: a caught-up performance secondary is given its primary's storage without
    // the mount secret/ (as if the scope lost a mount on the way).
    replicatedStorage: (...args: Parameters<typeof real.replicatedStorage>) => {
      const out = real.replicatedStorage(...args);
      if (!fault.scope || args[0] !== 'performance') return out;
      const { ['secret/']: _m, ...mounts } = out.mounts;
      const { ['secret/']: _k, ...kv } = out.kv;
      return { ...out, mounts, kv };
    },
  };
});

vi.mock('../../../../src/areas/replication/filters.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../src/areas/replication/filters.js')>();
  // The injected bug: the paths filter lets every mount through.
  return { ...real, filterIncludesMount: (...args: Parameters<typeof real.filterIncludesMount>) => fault.filter || real.filterIncludesMount(...args) };
});

async function findingsOf(file: string): Promise<string[]> {
  const loaded = loadScenario(readFileSync(join(__dirname, '../../../../scenarios', file), 'utf8'), file);
  if (!loaded.ok) throw new Error('scenario does not load');
  const result = await runScenario(loaded.scenario);
  return result.steps.flatMap((s) => s.findings.filter((f) => f.kind === "violation").map((f) => f.id));
}

afterEach(() => {
  fault.scope = false;
  fault.filter = false;
});

describe('the monitors do not share the code they judge', () => {
  it('with the simulator as it is, scenario 09 raises no violation', async () => {
    expect(await findingsOf('09-perf-allow-filter.yaml')).toEqual([]);
  });

  it('a scope that loses a mount on the way is caught by convergence', async () => {
    fault.scope = true;
    expect(await findingsOf('09-perf-allow-filter.yaml')).toContain('convergence');
  });

  it('a paths filter that lets everything through is caught by filters-respected', async () => {
    fault.filter = true;
    expect(await findingsOf('09-perf-allow-filter.yaml')).toContain('filters-respected');
  });
});
