// Versions: `secondary_public_key` needs 1.3 or newer on the performance primary (spec, Versioning
// 1); replicating from a newer primary to an older secondary is allowed but unsafe (Versioning 2):
// the `newer-primary` hazard reads each cluster's version and who streams to whom from the state.
import { describe, expect, it } from 'vitest';
import { World } from '../../../../src/world.js';
import { PERF, dataOf, enablePerfPrimary, enablePerfSecondary, expectOk, expectRefused, perfStatus, post } from './helpers.js';

describe('performance replication and versions', () => {
  it('secondary_public_key is refused by a primary older than 1.3 and accepted from 1.3.0', () => {
    const w = World.create({ old: { version: '1.2.4' }, new: { version: '1.3.0' }, west: {} });
    const key = dataOf(expectOk(post(w, 'west', `${PERF}/secondary/generate-public-key`))).secondary_public_key;
    for (const c of ['old', 'new']) enablePerfPrimary(w, c);
    const hash = w.stateHash();
    expectRefused(post(w, 'old', `${PERF}/primary/secondary-token`, { id: 'west', secondary_public_key: key }), 400, 'secondary_public_key needs version 1.3.0 or later on the primary; this cluster runs 1.2.4');
    expect(w.stateHash()).toBe(hash);
    // Without a key the old primary still issues wrapped tokens.
    expectOk(post(w, 'old', `${PERF}/primary/secondary-token`, { id: 'west' }));
    expect(dataOf(expectOk(post(w, 'new', `${PERF}/primary/secondary-token`, { id: 'west', secondary_public_key: key })))).toMatchObject({ id: 'west' });
  });

  it('a newer primary may replicate to an older secondary; the state shows both versions and the stream', () => {
    const w = World.create({ east: { version: '1.16.0' }, west: { version: '1.15.2' } });
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    w.advance(1000);
    expect(perfStatus(w, 'west')).toMatchObject({ state: 'stream-wals', connection_state: 'ready' });
    const [east, west] = [w.state.clusters.named('east'), w.state.clusters.named('west')];
    expect([east.version, west.version]).toEqual(['1.16.0', '1.15.2']);
    expect(west.replication.performance).toMatchObject({ primary: 'east', connected: true });
  });
});
