// A cluster has a DR role and a performance role at once. DR carries everything, the performance
// configuration included, so a promoted DR secondary joins the performance set in its DR primary's
// place: as the performance primary (its performance secondaries follow it once re-pointed with
// update_primary_addrs), or as a performance secondary with the same secondary id and token.
import { describe, expect, it } from 'vitest';
import { primariesBySet } from '../../../../src/areas/replication/monitors/two-primaries.js';
import type { World } from '../../../../src/world.js';
import { drOperationToken, operationTokensBuilt } from '../helpers.js';
import {
  DR,
  PERF,
  bodyOf,
  dataOf,
  enablePerfPrimary,
  enablePerfSecondary,
  expectOk,
  expectRefused,
  get,
  kvValue,
  perfStatus,
  perfToken,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  setFilter,
  writeKv,
} from './helpers.js';

const drStatus = (w: World, c: string) => dataOf(get(w, c, `${DR}/status`));

/** A DR secondary of `primary`, enabled with a DR token that `token` (a client token on the primary) issues. */
function enableDrSecondary(w: World, primary: string, secondary: string, token = rootOf(w, primary)): void {
  const t = bodyOf(expectOk(post(w, primary, `${DR}/primary/secondary-token`, { id: secondary }, token))).wrap_info.token;
  expectOk(post(w, secondary, `${DR}/secondary/enable`, { token: t }));
}

/**
 * east: performance primary and DR primary, with south its performance secondary (filtered: no
 * billing/) and west its DR secondary, all synced.
 */
function perfPrimaryWithDrSecondary(): { w: World; eastRoot: string; southRoot: string } {
  const w = perfWorld();
  const eastRoot = rootOf(w, 'east');
  expectOk(writeKv(w, 'east', 'secret', 'app', { v: 1 }, eastRoot));
  expectOk(writeKv(w, 'east', 'billing', 'invoice', { n: 1 }, eastRoot));
  enablePerfPrimary(w, 'east');
  const southToken = perfToken(w, 'east', 'south');
  expectOk(setFilter(w, 'east', 'south', { mode: 'deny', paths: ['billing/'] }));
  expectOk(post(w, 'south', `${PERF}/secondary/enable`, { token: southToken }));
  expectOk(post(w, 'east', `${DR}/primary/enable`));
  enableDrSecondary(w, 'east', 'west');
  w.advance(1000);
  return { w, eastRoot, southRoot: rootTokenOn(w, 'south', 'east') };
}

describe('DR and performance roles on one cluster', () => {
  it('a performance primary can also be a DR primary, and its DR secondary is not a member of the performance set', () => {
    const { w } = perfPrimaryWithDrSecondary();
    expect(perfStatus(w, 'east')).toMatchObject({ mode: 'primary', known_secondaries: ['south'] });
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'primary', known_secondaries: ['west'] });
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', state: 'stream-wals' });
    expect(perfStatus(w, 'west')).toEqual({ mode: 'disabled' });
    expect(perfStatus(w, 'east').secondaries.map((s: any) => s.node_id)).toEqual(['south']);
  });

  it('a performance secondary can be a DR primary; a DR secondary cannot run performance replication beside it', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    w.advance(1000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    expectOk(post(w, 'west', `${DR}/primary/enable`, {}, westRoot));
    enableDrSecondary(w, 'west', 'south', westRoot);
    expect(drStatus(w, 'west').mode).toBe('primary');
    expectRefused(post(w, 'west', `${DR}/secondary/enable`, { token: 'x' }, westRoot), 400, 'is a DR primary');
    expectRefused(post(w, 'south', `${PERF}/secondary/enable`, { token: 'x' }, westRoot), 400, 'path disabled in replication DR secondary mode');
  });
});

describe.skipIf(!operationTokensBuilt)('promoting a DR secondary whose primary is in a performance set', () => {
  it('planned: the DR-demoted performance primary stops serving the set; the promoted DR secondary is its primary, with its tokens and filters', () => {
    const { w, eastRoot, southRoot } = perfPrimaryWithDrSecondary();
    const setId = perfStatus(w, 'east').cluster_id;

    expectOk(post(w, 'east', `${DR}/primary/demote`, {}, eastRoot));
    // A DR secondary runs no performance replication of its own.
    expect(perfStatus(w, 'east')).toEqual({ mode: 'disabled' });
    w.advance(1000);
    expect(perfStatus(w, 'south')).toMatchObject({ connection_state: 'transient_failure' });

    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(perfStatus(w, 'west')).toMatchObject({ mode: 'primary', cluster_id: setId, known_secondaries: ['south'] });
    // The filter came with it (DR carried it), readable with east's root token (DR carried that too).
    expect(dataOf(get(w, 'west', `${PERF}/primary/paths-filter/south`, eastRoot))).toEqual({ mode: 'deny', paths: ['billing/'] });
    expect(primariesBySet(w.state).size).toBe(0);

    // South follows the new primary with the lighter update: addresses, no new token.
    expectOk(post(w, 'south', `${PERF}/secondary/update-primary`, { update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }, southRoot));
    expectOk(writeKv(w, 'west', 'secret', 'after-failover', { v: 2 }, eastRoot));
    expectOk(writeKv(w, 'west', 'billing', 'after-failover', { n: 2 }, eastRoot));
    w.advance(1000);
    expect(perfStatus(w, 'west').secondaries).toMatchObject([{ node_id: 'south', connection_status: 'connected' }]);
    expect(kvValue(w, 'south', 'secret', 'after-failover', southRoot)).toEqual({ v: 2 });
    expect(kvValue(w, 'south', 'billing', 'after-failover', southRoot)).toBe(404);
    // South's writes now go to west.
    expectOk(writeKv(w, 'south', 'secret', 'from-south', { v: 3 }, southRoot));
    expect(kvValue(w, 'west', 'secret', 'from-south', eastRoot)).toEqual({ v: 3 });
  });

  it('failback: the DR-demoted primary promoted again takes its performance role back, and its secondaries reconnect by themselves', () => {
    const { w, eastRoot, southRoot } = perfPrimaryWithDrSecondary();
    expectOk(post(w, 'east', `${DR}/primary/demote`, {}, eastRoot));
    w.advance(1000);
    expectOk(post(w, 'east', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'east', 'east') }));
    expect(perfStatus(w, 'east')).toMatchObject({ mode: 'primary', known_secondaries: ['south'] });
    expectOk(writeKv(w, 'east', 'secret', 'back', { v: 1 }, eastRoot));
    w.advance(1000);
    expect(kvValue(w, 'south', 'secret', 'back', southRoot)).toEqual({ v: 1 });
  });

  it('the DR secondary knows the performance configuration as of its last sync (it travels in the WAL)', () => {
    const { w } = perfPrimaryWithDrSecondary();
    perfToken(w, 'east', 'later');
    w.advance(1000);
    w.partition(['east', 'west']);
    perfToken(w, 'east', 'unseen');
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(perfStatus(w, 'west').known_secondaries).toEqual(['south', 'later']);
  });

  it('unplanned: with east crashed the promoted DR secondary is the performance primary; east coming back makes two primaries of one set', () => {
    const { w } = perfPrimaryWithDrSecondary();
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(perfStatus(w, 'west').mode).toBe('primary');
    expect(primariesBySet(w.state).size).toBe(0);
    w.restart('east');
    expect([...primariesBySet(w.state).keys()].sort()).toEqual([`dr|${drStatus(w, 'west').cluster_id}`, `performance|${perfStatus(w, 'west').cluster_id}`]);
  });

  it('a DR secondary that is disabled drops the performance role it mirrored: promoting it later takes nothing up', () => {
    const { w, eastRoot } = perfPrimaryWithDrSecondary();
    expectOk(post(w, 'west', `${DR}/secondary/disable`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expectOk(post(w, 'west', `${DR}/primary/enable`, {}, eastRoot));
    expectOk(post(w, 'west', `${DR}/primary/demote`, {}, eastRoot));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(perfStatus(w, 'west')).toEqual({ mode: 'disabled' });
    expect(perfStatus(w, 'east')).toMatchObject({ mode: 'primary', known_secondaries: ['south'] });
  });

  it('a DR secondary of a performance secondary, once promoted, connects to the performance primary with the same secondary id and token', () => {
    const w = perfWorld();
    const eastRoot = rootOf(w, 'east');
    expectOk(writeKv(w, 'east', 'secret', 'app', { v: 1 }, eastRoot));
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    w.advance(1000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    expectOk(post(w, 'west', `${DR}/primary/enable`, {}, westRoot));
    enableDrSecondary(w, 'west', 'south', westRoot);
    w.advance(1000);
    const setId = perfStatus(w, 'east').cluster_id;

    w.crash('west');
    // south holds west's keyring, which is east's since west became a performance secondary.
    expectOk(post(w, 'south', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'south', 'east') }));
    expect(perfStatus(w, 'south')).toMatchObject({ mode: 'secondary', cluster_id: setId, secondary_id: 'west' });
    expectOk(writeKv(w, 'east', 'secret', 'after', { v: 2 }, eastRoot));
    w.advance(1000);
    // East lists both under the id "west": south, connected, and the crashed west, still counted
    // connected until two of its heartbeats were due and did not come, then disconnected.
    const entries = (westStatus: string) => [
      { node_id: 'west', api_address: w.state.clusters.named('south').apiAddr, connection_status: 'connected' },
      { node_id: 'west', api_address: w.state.clusters.named('west').apiAddr, connection_status: westStatus },
    ];
    expect(perfStatus(w, 'east').secondaries).toMatchObject(entries('connected'));
    w.advance(10_000);
    expect(perfStatus(w, 'east').secondaries).toMatchObject(entries('disconnected'));
    // West's local root token came with DR; with it, south serves east's replicated data.
    expect(kvValue(w, 'south', 'secret', 'after', westRoot)).toEqual({ v: 2 });
    // And it forwards writes to east like the secondary it replaces.
    expectOk(writeKv(w, 'south', 'secret', 'from-south', { v: 3 }, westRoot));
    expect(kvValue(w, 'east', 'secret', 'from-south', eastRoot)).toEqual({ v: 3 });
  });
});
