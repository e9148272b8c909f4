// The direct (draft-free) form of a DR `replication-wal-delivered` (issue #15) builds what its immer
// draft form builds: the same state, key order included, every object frozen, for every delivery of
// a run (writes, deletes, a performance primary enabled on the DR primary so that it is mirrored).
import { describe, expect, it } from 'vitest';
import { compareDeliveries } from './delivered-direct.js';
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
    const dr = compareDeliveries(w, 'dr', (_before, next, e) => {
      // The secondary holds the primary's own objects, as the draft form shares them.
      expect(next.clusters.named(e.cluster).storage).toBe(next.clusters.named(e.primary).storage);
      expect(next.clusters.named(e.cluster).replication.dr.mirroredPerformance).toBe(next.clusters.named(e.primary).replication.performance);
    });
    expect(dr).toBeGreaterThan(20);
  });
});
