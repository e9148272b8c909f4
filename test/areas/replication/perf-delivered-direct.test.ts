// The direct (draft-free) form of a performance `replication-wal-delivered` (issue #15) builds what
// its immer draft form builds: the same state, key order included, every object frozen, for every
// delivery of a run that exercises what a performance delivery filters and copies (an allow filter
// and a deny filter, a namespace, a local mount, a sync destination in a namespace and one in the
// root, a revoked sibling, deletes), and leaves untouched what the delivery does not change.
import { describe, expect, it } from 'vitest';
import type { ClusterSpec, Topology } from '../../../src/areas/cluster/genesis.js';
import { World } from '../../../src/world.js';
import { compareDeliveries } from './delivered-direct.js';
import { LATENCY_MS, replicate, rootOf } from '../../../bench/lib/worlds.js';

const PERF = 'sys/replication/performance';
const SPEC: ClusterSpec = {
  namespaces: ['team-a/'],
  mounts: { 'secret/': 'kv-v2', 'other/': 'kv-v2', 'team-a/apps/': 'kv-v2', 'mine/': { type: 'kv-v2', local: true } },
};

function ok(status: number, what: string): void {
  expect(status, what).toBeLessThan(300);
}

describe('replication-wal-delivered (performance), direct form', () => {
  it('builds, for each performance delivery, what the draft form builds', () => {
    const topology: Topology = { p: SPEC, s1: SPEC, s2: SPEC, s3: SPEC };
    const w = World.create(topology, { seed: 3, latencyMs: LATENCY_MS });
    replicate(w, 'performance', 'p', ['s1', 's2', 's3']);
    w.advance(1000);
    const token = rootOf(w, 'p');
    const post = (path: string, body: Record<string, unknown>, namespace?: string) => w.request('p', { method: 'POST', path, body, token, ...(namespace ? { namespace } : {}) });
    ok(post(`${PERF}/primary/paths-filter/s1`, { mode: 'allow', paths: ['secret/', 'team-a/'] }).status, 'allow filter');
    ok(post(`${PERF}/primary/paths-filter/s2`, { mode: 'deny', paths: ['other/'] }).status, 'deny filter');
    ok(post('sys/sync/destinations/codehost/gh1', { access_token: 't', repository_owner: 'o', repository_name: 'r' }).status, 'destination in root');
    ok(post('sys/sync/destinations/codehost/gh2', { access_token: 't', repository_owner: 'o', repository_name: 'r' }, 'team-a').status, 'destination in team-a');
    w.advance(LATENCY_MS * 3);
    for (let i = 0; i < 16; i++) {
      const mount = ['secret', 'other', 'mine'][i % 3];
      ok(post(`${mount}/data/app/k${i % 5}`, { data: { v: i } }).status, `write ${i}`);
      ok(w.request('p', { method: 'POST', path: 'apps/data/x', namespace: 'team-a', body: { data: { i } }, token }).status, `namespaced write ${i}`);
      if (i % 4 === 3) w.request('p', { method: 'DELETE', path: `${mount}/data/app/k${i % 5}`, token });
      if (i === 9) ok(post(`${PERF}/primary/revoke-secondary`, { id: 's3' }).status, 'revoke s3');
      w.advance(LATENCY_MS);
    }
    const seen = new Set<string>();
    const checked = compareDeliveries(w, 'performance', (before, next, e) => {
      seen.add(e.cluster);
      // Only the secondary changed; the primary and the others are the very same objects.
      for (const name of before.clusters.names) if (name !== e.cluster) expect(next.clusters.get(name)).toBe(before.clusters.get(name));
      // What the secondary takes from its primary is the primary's own objects, as the draft form shares them.
      expect(next.clusters.named(e.cluster).plugins).toBe(before.clusters.named(e.primary).plugins);
      expect(next.clusters.named(e.cluster).replication.performance.issued).toBe(before.clusters.named(e.primary).replication.performance.issued);
    });
    expect(checked).toBeGreaterThan(30);
    // s3 too, until it was revoked.
    expect([...seen].sort()).toEqual(['s1', 's2', 's3']);
    const state = w.state;
    // The filters took effect: s1 (allow secret/, team-a/) lacks other/, s2 (deny other/) lacks it too, both have secret/.
    expect(Object.keys(state.clusters.named('s1').storage.mounts)).not.toContain('other/');
    expect(Object.keys(state.clusters.named('s2').storage.mounts)).not.toContain('other/');
    expect(Object.keys(state.clusters.named('s1').storage.mounts)).toContain('team-a/apps/');
    expect(Object.keys(state.clusters.named('s1').sync.destinations).length).toBeGreaterThan(0);
  });
});
