// The direct (draft-free) form of a DR `replication-wal-delivered` (issue #15) builds what its immer
// draft form builds: the same state, key order included, every object frozen, for every delivery of
// a run (writes, deletes, a performance primary enabled on the DR primary so that it is mirrored).
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../src/areas/cluster/events.js';
import type { SimState } from '../../../src/areas/cluster/state.js';
import { applyEvent, type ReducerTable } from '../../../src/kernel/engine.js';
import { reducers, World } from '../../../src/world.js';
import { objects } from '../../kernel/reachable.js';
import { LATENCY_MS, replicationSet, rootOf, write } from '../../../bench/lib/worlds.js';

describe('replication-wal-delivered, direct form', () => {
  it('builds, for each DR delivery, what the draft form builds', () => {
    const w = replicationSet('dr', 2);
    const token = rootOf(w, 'p');
    expect(w.request('p', { method: 'POST', path: 'sys/replication/performance/primary/enable', body: {}, token }).status).toBeLessThan(300);
    w.advance(LATENCY_MS * 2);
    for (let i = 0; i < 12; i++) {
      write(w, 'p', token, `app/k${i % 5}`, { v: i });
      if (i % 4 === 3) w.request('p', { method: 'DELETE', path: `secret/data/app/k${i % 5}`, token });
      w.advance(LATENCY_MS);
    }
    const log = w.log as SimEvent[];
    const delivered = reducers['replication-wal-delivered'];
    expect(typeof delivered?.direct).toBe('function');
    const draftOnly = { ...reducers, 'replication-wal-delivered': (d: SimState, e: never) => delivered!(d, e) } as ReducerTable<SimState, SimEvent>;
    let state = World.replay(log.slice(0, 1)).state;
    let dr = 0;
    for (const e of log.slice(1)) {
      const next = applyEvent(state, e, reducers);
      if (e.type === 'replication-wal-delivered' && e.kind === 'dr') {
        dr++;
        expect(JSON.stringify(next)).toBe(JSON.stringify(applyEvent(state, e, draftOnly)));
        for (const [path, o] of objects(next)) expect(Object.isFrozen(o), path).toBe(true);
        // The secondary holds the primary's own objects, as the draft form shares them.
        expect(next.clusters[e.cluster].storage).toBe(next.clusters[e.primary].storage);
        expect(next.clusters[e.cluster].replication.dr.mirroredPerformance).toBe(next.clusters[e.primary].replication.performance);
      }
      state = next;
    }
    expect(dr).toBeGreaterThan(20);
    expect(JSON.stringify(state)).toBe(JSON.stringify(w.state));
  });
});
