// What every reducer answers (src/kernel/engine.ts `Reducer`): new frozen objects where the state
// changed, everything else shared. Over the logs of random property runs and of the gallery's
// scenarios, every state the world's reducers fold is frozen throughout, the same state when an
// event changed nothing, and a cluster the event did not change is the very same object; which
// clusters changed is what the table says it set (cluster-table.ts `changedSince`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/areas/core/events.js';
import type { SimState } from '../../src/areas/core/state.js';
import { runProperty } from '../../src/explore/property.js';
import { applyEvent } from '../../src/kernel/engine.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { reducers, World } from '../../src/world.js';
import { objects } from './reachable.js';

function checkFold(log: readonly SimEvent[], seen: Set<string>): void {
  let state: SimState = World.replay(log.slice(0, 1)).state;
  for (const [path, o] of objects(state)) expect(Object.isFrozen(o), path).toBe(true);
  for (const e of log.slice(1)) {
    const next = applyEvent(state, e, reducers);
    seen.add(e.type);
    const changed = next.clusters.changedSince(state.clusters);
    for (const c of state.clusters) {
      if (changed.includes(c.name)) expect(next.clusters.get(c.name), `${e.type} changed ${c.name}`).not.toBe(c);
      else expect(next.clusters.get(c.name), `${e.type} left ${c.name}`).toBe(c);
    }
    if (JSON.stringify(next) === JSON.stringify({ ...state, now: next.now }) && next.now === state.now) expect(next).toBe(state);
    for (const name of changed) for (const [path, o] of objects(next.clusters.named(name), name)) expect(Object.isFrozen(o), `${e.type} ${path}`).toBe(true);
    for (const [field, value] of Object.entries(next)) if (field !== 'clusters') for (const [path, o] of objects(value, field)) expect(Object.isFrozen(o), `${e.type} ${path}`).toBe(true);
    expect(Object.isFrozen(next)).toBe(true);
    state = next;
  }
}

describe('the reducers', () => {
  it('fold random runs into frozen states sharing what did not change', () => {
    const seen = new Set<string>();
    const logs: SimEvent[][] = [];
    for (const [seed, clusters] of [[1, 3], [2, 5]] as const) runProperty({ runs: 15, seed, steps: 40, clusters, afterRun: (op) => void logs.push(op.fullLog() as SimEvent[]) });
    for (const log of logs) checkFold(log, seen);
    expect(seen.size).toBeGreaterThan(15);
  });

  it('fold the gallery scenarios into frozen states sharing what did not change', async () => {
    const seen = new Set<string>();
    const dir = join(import.meta.dirname, '../../scenarios');
    for (const file of readdirSync(dir).filter((f) => /^\d\d-.+\.yaml$/.test(f))) {
      const loaded = loadScenario(readFileSync(join(dir, file), 'utf8'), file);
      if (!loaded.ok) throw new Error(`${file} does not load`);
      checkFold((await runScenario(loaded.scenario)).world.log as SimEvent[], seen);
    }
    expect(seen.size).toBeGreaterThan(30);
  });
});
