// One test per row of the spec's replication role table, for DR, with the row's "Also" column.
import { describe, expect, it } from 'vitest';
import {
  DR,
  drOperationToken,
  drPair,
  drStatus,
  drWorld,
  enablePrimary,
  enableSecondary,
  expectOk,
  expectRefused,
  operationTokensBuilt,
  post,
  rootOf,
  secondaryToken,
  writeKv,
} from './helpers.js';

const roleOf = (w: ReturnType<typeof drWorld>, c: string) => w.state.clusters.named(c).replication.dr.role;

describe('DR role table', () => {
  it('disabled → primary on primary/enable, only while replication is disabled', () => {
    const w = drWorld();
    enablePrimary(w, 'east', { primary_cluster_addr: 'https://east-lb:8201' });
    expect(roleOf(w, 'east')).toBe('primary');
    expect(drStatus(w, 'east').primary_cluster_addr).toBe('https://east-lb:8201');
    expectRefused(post(w, 'east', `${DR}/primary/enable`), 400, 'already a DR primary');
  });

  it.skipIf(!operationTokensBuilt)('primary → secondary on primary/demote: keeps its cluster id, connects nowhere until update-primary, rejoins without a wipe', () => {
    const w = drWorld();
    drPair(w);
    const root = rootOf(w, 'east');
    writeKv(w, 'east', 'app', { v: 1 });
    w.advance(1000);
    const setId = drStatus(w, 'east').cluster_id;
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    w.advance(10_000);
    expect(roleOf(w, 'east')).toBe('secondary.demoted');
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'secondary', cluster_id: setId, connection_state: 'idle', primaries: [] });
    // Its former secondary loses its primary.
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');

    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    const kvBefore = w.state.clusters.named('east').storage.kv;
    expectOk(post(w, 'east', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'east', 'east'), token: secondaryToken(w, 'west', 'east', {}, root) }));
    expect(w.state.clusters.named('east').storage.kv).toBe(kvBefore); // no wipe
    w.advance(1000);
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'secondary', cluster_id: setId, state: 'stream-wals', connection_state: 'ready' });
  });

  it('primary → disabled on primary/disable: secondaries can no longer connect; re-enabling changes the cluster id and they need a wipe', () => {
    const w = drWorld();
    drPair(w);
    const oldId = drStatus(w, 'east').cluster_id;
    expectOk(post(w, 'east', `${DR}/primary/disable`));
    w.advance(1000);
    expect(roleOf(w, 'east')).toBe('disabled');
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');

    enablePrimary(w, 'east');
    w.advance(1000);
    const newId = drStatus(w, 'east').cluster_id;
    expect(newId).not.toBe(oldId);
    // The secondary still belongs to the old set: it cannot connect to the new one.
    expect(drStatus(w, 'west')).toMatchObject({ cluster_id: oldId, connection_state: 'transient_failure' });
    expect(drStatus(w, 'east').secondaries).toEqual([]);
  });

  it('disabled → secondary on secondary/enable with a valid token: everything it stored is cleared at once', () => {
    const w = drWorld();
    writeKv(w, 'west', 'mine', { v: 1 });
    enablePrimary(w, 'east');
    expectRefused(post(w, 'west', `${DR}/secondary/enable`, { token: 'not-a-token' }), 400, 'invalid secondary activation token');
    expect(roleOf(w, 'west')).toBe('disabled');
    expectOk(post(w, 'west', `${DR}/secondary/enable`, { token: secondaryToken(w, 'east', 'west') }));
    // Before any time passes: no KV, no mounts, no namespaces; the primary's keyring and tokens.
    const west = w.state.clusters.named('west');
    expect(roleOf(w, 'west')).toBe('secondary.following');
    expect([west.storage.kv, west.storage.mounts, west.storage.namespaces]).toEqual([{}, {}, {}]);
    expect(west.storage.keyring).toEqual(w.state.clusters.named('east').storage.keyring);
    expect(west.storage.tokens[rootOf(w, 'west')]).toBeUndefined();
    expect(west.storage.tokens[rootOf(w, 'east')]).toBeDefined();
  });

  it.skipIf(!operationTokensBuilt)('secondary → primary on secondary/promote: other secondaries need new tokens', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(roleOf(w, 'west')).toBe('primary');
    w.advance(1000);
    // south keeps following east's address; west does not know it as a secondary.
    expect(drStatus(w, 'south')).toMatchObject({ primaries: [{ api_address: w.state.clusters.named('east').apiAddr }], connection_state: 'ready' });
    expect(drStatus(w, 'west').secondaries).toEqual([]);
  });

  it.skipIf(!operationTokensBuilt)('secondary → disabled on secondary/disable: it cannot connect, and re-enabling changes the cluster id', () => {
    const w = drWorld();
    drPair(w);
    const oldId = drStatus(w, 'east').cluster_id;
    expectOk(post(w, 'west', `${DR}/secondary/disable`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    w.advance(1000);
    expect(roleOf(w, 'west')).toBe('disabled');
    expect(drStatus(w, 'east').secondaries).toEqual([]);
    // Re-enabled as a primary it starts a new set (its tokens are the old primary's since it joined).
    expectOk(post(w, 'west', `${DR}/primary/enable`, {}, rootOf(w, 'east')));
    expect(drStatus(w, 'west').cluster_id).not.toBe(oldId);
  });

  it.skipIf(!operationTokensBuilt)('secondary → secondary on secondary/update-primary: no wipe, and the assigned primary changes', () => {
    const w = drWorld();
    drPair(w);
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    // south becomes a primary of the same set; west moves to it.
    expectOk(post(w, 'south', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'south', 'east') }));
    const storage = w.state.clusters.named('west').storage;
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), update_primary_addrs: [w.state.clusters.named('south').apiAddr] }));
    expect(w.state.clusters.named('west').storage).toBe(storage);
    expect(w.state.clusters.named('west').replication.dr.primary).toBe('south');
    expect(roleOf(w, 'west')).toBe('secondary.following');
  });

  it('primary side: revoke-secondary disconnects the secondary, which stays barred until given a new token', () => {
    const w = drWorld();
    drPair(w);
    expect(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }).status).toBe(204);
    w.advance(1000);
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');
    // The old token stays unusable; a new token for the same id may be issued.
    const token = secondaryToken(w, 'east', 'west');
    expect(token).toMatch(/\./);
    w.advance(60_000);
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');
  });

  it('note: a DR secondary must be promoted, not enabled as a primary (the path is closed on it)', () => {
    const w = drWorld();
    drPair(w);
    expectRefused(post(w, 'west', `${DR}/primary/enable`, {}, rootOf(w, 'east')), 400, 'path disabled in replication DR secondary mode');
    expect(roleOf(w, 'west')).toBe('secondary.following');
  });

  it('note: a primary cannot be enabled as a secondary without first leaving the primary role', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    enablePrimary(w, 'west');
    expectRefused(post(w, 'west', `${DR}/secondary/enable`, { token: secondaryToken(w, 'east', 'west') }), 400, 'disable DR replication on it before');
  });
});
