// The direct (draft-free) forms of the commonest role events of property runs and the explorer
// (issue #15): a primary enabled, demoted or disabled, a secondary token issued, a secondary disabled. Over the logs of random
// property runs (DR and performance, 3 and 5 clusters), each such event folded with the direct form
// must give what its draft form gives from the same state: the same values with keys in the same
// order, every object frozen, and every other cluster the very same object.
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../src/areas/core/events.js';
import type { SimState } from '../../../src/areas/core/state.js';
import { throughDraft, type SimDraft } from '../../../src/areas/core/draft.js';
import { replicationReducers } from '../../../src/areas/replication/evolve.js';
import { replicatingPerformanceConfiguration } from '../../../src/areas/replication/interplay.js';
import { withWalSnapshots } from '../../../src/areas/replication/shipping.js';
import { runProperty } from '../../../src/explore/property.js';
import { applyEvent, type ReducerTable } from '../../../src/kernel/engine.js';
import { reducers, World } from '../../../src/world.js';
import { objects } from '../../kernel/reachable.js';

const TYPES = ['replication-primary-enabled', 'replication-primary-disabled', 'replication-secondary-token-issued', 'replication-primary-demoted', 'replication-secondary-disabled'] as const;

/** The world's reducers with `type`'s drafted on every event (its direct form left out), with the area's and the world's upkeep. */
function draftOnly(type: (typeof TYPES)[number]): ReducerTable<SimState, SimEvent> {
  const r = replicationReducers[type] as (d: SimDraft, e: never) => void;
  expect(typeof (r as { direct?: unknown }).direct).toBe('function');
  const area = replicatingPerformanceConfiguration({ [type]: (d: SimDraft, e: never) => r(d, e) });
  return { ...reducers, ...withWalSnapshots({ [type]: throughDraft(area[type]) } as ReducerTable<SimState, SimEvent>) };
}

describe('direct forms of role events', () => {
  it('build what their draft forms build, on every such event of random runs', () => {
    const tables = Object.fromEntries(TYPES.map((t) => [t, draftOnly(t)]));
    const compared: Record<string, number> = Object.fromEntries(TYPES.map((t) => [t, 0]));
    const logs: SimEvent[][] = [];
    for (const [seed, clusters] of [[1, 3], [2, 5], [3, 3]] as const) runProperty({ runs: 25, seed, steps: 40, clusters, afterRun: (op) => void logs.push(op.fullLog() as SimEvent[]) });
    for (const log of logs) {
      let state = World.replay(log.slice(0, 1)).state;
      for (const e of log.slice(1)) {
        const next = applyEvent(state, e, reducers);
        const table = tables[e.type];
        if (table) {
          compared[e.type]++;
          const drafted = applyEvent(state, e, table);
          expect(JSON.stringify(next)).toBe(JSON.stringify(drafted));
          for (const [path, o] of objects(next)) expect(Object.isFrozen(o), path).toBe(true);
          for (const c of state.clusters) if (c.name !== (e as { cluster: string }).cluster) expect(next.clusters.get(c.name)).toBe(c);
        }
        state = next;
      }
    }
    for (const t of TYPES) expect(compared[t], t).toBeGreaterThan(5);
  });
});
