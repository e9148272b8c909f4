// Which clusters an event changed (src/areas/core/changed.ts): the short cut through the tables a
// table was made from (cluster-table.ts `changedSince`) gives the same answer as comparing every
// cluster, and so do the revoked
// credentials and the followers read through it (replication/link.ts `credentialsRevoked`, `followersOf`), on a run with KV writes,
// WAL deliveries, a revocation and a partition.
import { describe, expect, it } from 'vitest';
import { changedClusters } from '../../../src/areas/core/changed.js';
import type { SimState } from '../../../src/areas/core/state.js';
import { acceptsCredentials, credentialsRevoked, followersOf } from '../../../src/areas/replication/link.js';
import { replicate, rootOf, write } from '../../../bench/lib/worlds.js';
import { World } from '../../../src/world.js';

const KV = { mounts: { 'secret/': 'kv-v2' } } as const;

function everyChanged(before: SimState, after: SimState): string[] {
  return after.clusters.names.filter((n) => before.clusters.get(n) !== after.clusters.get(n));
}

function revokedByScan(state: SimState, kind: 'dr' | 'performance', jti: string): boolean {
  return state.clusters.list().some(
    (c) => (c.replication[kind].revokedCredentials ?? []).includes(jti) || (kind === 'performance' && (c.replication.dr.mirroredPerformance?.revokedCredentials ?? []).includes(jti)),
  );
}

describe('changed clusters', () => {
  it('equal a comparison of every cluster, event by event, and so do the revoked credentials', () => {
    const w = World.create({ p: KV, s1: KV, s2: KV, idle: KV }, { seed: 3, latencyMs: 20 });
    let before = w.state;
    let events = 0;
    let shortCuts = 0;
    w.events$.subscribe(() => {
      const after = w.state;
      const names = changedClusters(before, after);
      if (names.length === 1 && everyChanged(before, after).length === 1) shortCuts++;
      expect([...names].sort()).toEqual(everyChanged(before, after).sort());
      const jtis = after.clusters.list().flatMap((c) => [c.replication.dr.jti, ...(c.replication.dr.revokedCredentials ?? [])]).filter((j) => j !== '');
      for (const j of jtis) expect(credentialsRevoked(after, 'dr', j)).toBe(revokedByScan(after, 'dr', j));
      for (const p of after.clusters.list()) {
        const pr = p.replication.dr;
        const scan = [...after.clusters.names]
          .sort()
          .map((n) => after.clusters.named(n))
          .filter((c) => c.name !== p.name && c.replication.dr.role === 'secondary.following' && c.replication.dr.primary === p.name && c.replication.dr.clusterId === pr.clusterId && acceptsCredentials(after, 'dr', p, c.replication.dr.secondaryId, c.replication.dr.jti));
        expect(followersOf(after, 'dr', p).map((c) => c.name)).toEqual(scan.map((c) => c.name));
      }
      before = after;
      events++;
    });
    replicate(w, 'dr', 'p', ['s1', 's2']);
    w.advance(1000);
    const token = rootOf(w, 'p');
    for (let i = 0; i < 5; i++) (write(w, 'p', token, `k${i}`, { v: i }), w.advance(20));
    expect(w.request('p', { method: 'POST', path: 'sys/replication/dr/primary/revoke-secondary', body: { id: 's2' }, token }).status).toBe(204);
    w.partition(['p', 's1']);
    for (let i = 0; i < 3; i++) (write(w, 'p', token, `k${i}`, { v: 10 + i }), w.advance(20));
    w.heal('all');
    w.advance(1000);
    expect(events).toBeGreaterThan(30);
    expect(shortCuts).toBeGreaterThan(10);
  });
});
