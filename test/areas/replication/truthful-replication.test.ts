// Regressions of issue #12: where the simulator disagreed with its own checker. Each test is the
// minimal operator sequence of one root cause, driven through the API only.
import { describe, expect, it } from 'vitest';
import { DR, drOperationToken, drPair, drWorld, enableSecondary, expectOk, expectRefused, post, rootOf, writeKv } from './helpers.js';
import { enablePerfPrimary, enablePerfSecondary, kvValue, writeKv as writePerfKv, PERF, perfPair, perfStatus, perfToken, perfWorld, rootTokenOn, setFilter } from './performance/helpers.js';

describe('cause 1: an activation token does not outlive its issuer’s primary role', () => {
  it('a performance primary demoted then disabled with secondary/disable forgets its tokens: west cannot enable with one', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    const token = perfToken(w, 'east', 'west');
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expectOk(post(w, 'east', `${PERF}/secondary/disable`));
    expect(w.state.clusters.named('east').replication.performance.issued).toEqual({});
    const hash = w.stateHash();
    expectRefused(post(w, 'west', `${PERF}/secondary/enable`, { token }), 500, /unwrapping/);
    expect(w.stateHash()).toBe(hash);
  });

  it('a token of a demoted issuer (now a secondary) activates nothing, and update-primary towards it is refused', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const forSouth = perfToken(w, 'east', 'south');
    const forWest = perfToken(w, 'east', 'west-2');
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    const hash = w.stateHash();
    expectRefused(post(w, 'south', `${PERF}/secondary/enable`, { token: forSouth }), 500, /no longer a performance primary/);
    expectRefused(post(w, 'west', `${PERF}/secondary/update-primary`, { token: forWest }, westRoot), 500, /no longer a performance primary/);
    expect(w.stateHash()).toBe(hash);
    // Promoted back, east is the set's primary again and its tokens work.
    expectOk(post(w, 'east', `${PERF}/secondary/promote`));
    expectOk(post(w, 'south', `${PERF}/secondary/enable`, { token: forSouth }));
  });

  it('a DR secondary enable wipes the cluster’s performance configuration: tokens it issued as a performance primary are gone', () => {
    const w = drWorld({ clusters: { east: {}, west: {}, south: {} } });
    expectOk(post(w, 'west', `${PERF}/primary/enable`));
    const token = perfToken(w, 'west', 'south');
    expectOk(post(w, 'west', `${PERF}/primary/demote`));
    expectOk(post(w, 'west', `${PERF}/secondary/disable`));
    drPair(w, 'east', 'west');
    expect(w.state.clusters.named('west').replication.performance.issued).toEqual({});
    expectRefused(post(w, 'south', `${PERF}/secondary/enable`, { token }), 500, /unwrapping/);
  });
});

describe('cause 2: a revoked secondary does not get back in through a sibling', () => {
  it('DR: south revoked by east cannot follow west (promoted after it forgot east) by address, nor receive a sync from it', () => {
    const w = drWorld({ clusters: { east: {}, west: {}, south: {} } });
    drPair(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    // west forgets its primary (empty token), then east revokes south: west never receives the revocation.
    const westOp = drOperationToken(w, 'west', 'east');
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: westOp, token: '' }, null));
    expectOk(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'south' }));
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: westOp }, null));
    const southOp = drOperationToken(w, 'south', 'east');
    const hash = w.stateHash();
    expectRefused(
      post(w, 'south', `${DR}/secondary/update-primary`, { dr_operation_token: southOp, update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }, null),
      400,
      /none of update_primary_addrs answered/,
    );
    expect(w.stateHash()).toBe(hash);
    expect(w.log.filter((e) => e.type === 'replication-secondary-synced' && e.cluster === 'south')).toHaveLength(1);
  });

  it('performance: a secondary revoked by the old primary gets no sync from the promoted sibling by address', () => {
    const w = perfWorld({ clusters: { east: {}, west: {}, south: {} } });
    const westRoot = perfPair(w, 'west');
    enablePerfSecondary(w, 'east', 'south');
    w.advance(1000);
    const southRoot = rootTokenOn(w, 'south', 'east');
    expectOk(post(w, 'east', `${PERF}/primary/revoke-secondary`, { id: 'south' }));
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    expectRefused(post(w, 'south', `${PERF}/secondary/update-primary`, { update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }, southRoot), 400, /none of update_primary_addrs answered/);
  });
});

describe('hidden acceptance findings', () => {
  it('known_secondaries is DR-replicated: after a failover the new primary can revoke a sibling that follows it by address', () => {
    const w = drWorld({ clusters: { east: {}, west: {}, south: {} } });
    drPair(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    // No write after south's token: the token itself is a replicated write that west receives.
    w.advance(1000);
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    const westOp = drOperationToken(w, 'west', 'east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: westOp }, null));
    const southOp = drOperationToken(w, 'south', 'east');
    expectOk(post(w, 'south', `${DR}/secondary/update-primary`, { dr_operation_token: southOp, update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }, null));
    w.advance(1000);
    expect(w.state.clusters.named('south').replication.dr.connected).toBe(true);
    expectOk(post(w, 'west', `${DR}/primary/revoke-secondary`, { id: 'south' }, rootOf(w, 'east')));
    w.advance(1000);
    expect(w.state.clusters.named('south').replication.dr.connected).toBe(false);
  });

  it('a performance secondary following a promoted primary by address keeps its deny filter (no new token used)', () => {
    const w = perfWorld();
    const westRoot = perfPair(w, 'west');
    enablePerfSecondary(w, 'east', 'south');
    w.advance(1000);
    const southRoot = rootTokenOn(w, 'south', 'east');
    expectOk(setFilter(w, 'east', 'south', { mode: 'deny', paths: ['billing/'] }));
    expectOk(writePerfKv(w, 'east', 'billing', 'invoice', { n: 1 }, rootOf(w, 'east')));
    w.advance(1000);
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    expectOk(post(w, 'south', `${PERF}/secondary/update-primary`, { update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }, southRoot));
    w.advance(2000);
    expect(perfStatus(w, 'west').secondaries).toMatchObject([{ node_id: 'south', connection_status: 'connected' }]);
    expect(w.state.clusters.named('south').storage.mounts['billing/']).toBeUndefined();
    expect(kvValue(w, 'south', 'secret', 'nothing', southRoot)).toBe(404);
    expect(perfStatus(w, 'south').secondary_id).toBe('south');
  });
});
