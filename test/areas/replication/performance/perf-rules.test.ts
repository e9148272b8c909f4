// Area B's rules 1–4, each pinned on its own, through the API.
import { describe, expect, it } from 'vitest';
import {
  DR,
  PERF,
  bodyOf,
  dataOf,
  expectOk,
  expectRefused,
  get,
  kvValue,
  perfPair,
  perfStatus,
  perfToken,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  setFilter,
  writeKv,
  enablePerfSecondary,
} from './helpers.js';

describe('area B rules', () => {
  it('rule 1: :id is the secondary id the token was created with (known_secondaries, the secondary’s secondary_id)', () => {
    const w = perfWorld();
    perfPair(w);
    expect(perfStatus(w, 'east').known_secondaries).toEqual(['west']);
    expect(perfStatus(w, 'west').secondary_id).toBe('west');
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['billing/'] }));
    // Not the set's cluster_id: that names the whole replication set, not one secondary.
    expectRefused(setFilter(w, 'east', perfStatus(w, 'west').cluster_id, { mode: 'deny', paths: ['billing/'] }), 400, 'no secondary with the id');
  });

  it('rule 1: after a new token is created and used with update-primary, the filter must be created again', () => {
    const w = perfWorld();
    const eastRoot = rootOf(w, 'east');
    writeKv(w, 'east', 'billing', 'invoice', { n: 1 }, eastRoot);
    const westRoot = perfPair(w);
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['billing/'] }));
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toBe(404);

    // A new token under another id: the filter of "west" does not follow the cluster.
    expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'east', 'west-2') }, westRoot));
    w.advance(1000);
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toEqual({ n: 1 });
    expectOk(setFilter(w, 'east', 'west-2', { mode: 'deny', paths: ['billing/'] }));
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toBe(404);

    // A new token for the same id (after revoking it) starts without a filter too.
    expectOk(post(w, 'east', `${PERF}/primary/revoke-secondary`, { id: 'west-2' }));
    const fresh = perfToken(w, 'east', 'west-2');
    expect(get(w, 'east', `${PERF}/primary/paths-filter/west-2`, eastRoot).status).toBe(404);
    expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: fresh }, westRoot));
    w.advance(1000);
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toEqual({ n: 1 });
  });

  it('rule 2: token and update_primary_addrs are mutually exclusive; a refusal changes nothing', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const token = perfToken(w, 'east', 'x');
    const [hash, length] = [w.stateHash(), w.log.length];
    const r = post(w, 'west', `${PERF}/secondary/update-primary`, { token, update_primary_addrs: [w.state.clusters.named('east').clusterAddr] }, westRoot);
    expect(r).toEqual({ status: 400, body: { errors: ['update-primary takes a token or update_primary_addrs, not both'] } });
    expectRefused(post(w, 'west', `${PERF}/secondary/update-primary`, {}, westRoot), 400, 'needs a token or update_primary_addrs');
    expect([w.stateHash(), w.log.length]).toEqual([hash, length]);
  });

  it('rule 2: addresses suit performance secondaries: after a promotion they follow the new primary with no new token', () => {
    const w = perfWorld();
    const eastRoot = rootOf(w, 'east');
    const westRoot = perfPair(w);
    enablePerfSecondary(w, 'east', 'south');
    w.advance(1000);
    const southRoot = rootTokenOn(w, 'south', 'east');
    expectOk(post(w, 'east', `${PERF}/primary/demote`, {}, eastRoot));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    const [east, west] = [w.state.clusters.named('east'), w.state.clusters.named('west')];
    // Pinged in order: east answers, but no longer as a primary; west does.
    expectOk(post(w, 'south', `${PERF}/secondary/update-primary`, { update_primary_addrs: [east.clusterAddr, west.clusterAddr] }, southRoot));
    expect(perfStatus(w, 'south')).toMatchObject({ secondary_id: 'south', known_primary_cluster_addrs: [east.clusterAddr, west.clusterAddr] });
    expectOk(post(w, 'west', 'secret/data/after', { data: { v: 1 } }, westRoot));
    w.advance(1000);
    expect(perfStatus(w, 'west').secondaries).toMatchObject([{ node_id: 'south', connection_status: 'connected' }]);
    expect(kvValue(w, 'south', 'secret', 'after', southRoot)).toEqual({ v: 1 });
    expectRefused(
      post(w, 'south', `${PERF}/secondary/update-primary`, { update_primary_addrs: ['https://nowhere.example:8201'] }, southRoot),
      400,
      'none of update_primary_addrs answered as the performance primary',
    );
  });

  it('rule 3: no DR operation token in area B: promote, disable and update-primary take a client token', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    // Without a client token they are refused like any authenticated path.
    for (const path of ['promote', 'disable', 'update-primary']) expectRefused(post(w, 'west', `${PERF}/secondary/${path}`, { token: '' }, null), 403, 'permission denied');
    // A dr_operation_token is not a parameter of these calls: it is ignored, with the service's warning.
    const r = expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: '', dr_operation_token: 'anything' }, westRoot));
    expect(bodyOf(r).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [dr_operation_token]']);
    // A performance secondary is not a DR secondary: the DR operation token machinery is not there.
    expectRefused(post(w, 'west', `${DR}/secondary/generate-operation-token/attempt`, {}, null), 400, 'not a DR secondary');
    expectOk(post(w, 'west', `${PERF}/secondary/disable`, {}, westRoot));
  });

  it('rule 4: the filter reads answer in the envelope: data {mode, paths} and data {dynamic_filtered_mounts, dynamic_filtered_namespaces}', () => {
    const w = perfWorld();
    perfPair(w);
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['team-a/'] }));
    const filter = bodyOf(get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east')));
    expect(filter).toMatchObject({ data: { mode: 'deny', paths: ['team-a/'] }, wrap_info: null, mount_type: 'system' });
    const dynamic = dataOf(get(w, 'east', `${PERF}/primary/dynamic-filter/west`, rootOf(w, 'east')));
    expect(Object.keys(dynamic).sort()).toEqual(['dynamic_filtered_mounts', 'dynamic_filtered_namespaces']);
  });
});
