// Whole DR stories, driven through the API and the clock as an operator would run them.
import { describe, expect, it } from 'vitest';
import { twoPrimaries } from '../../../src/areas/replication/monitors/two-primaries.js';
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
  readKv,
  rootOf,
  secondaryToken,
  writeKv,
} from './helpers.js';

describe('DR flows', () => {
  it('set-up: enable primary, issue a token, enable the secondary, and it catches up with the primary', () => {
    const w = drWorld();
    writeKv(w, 'east', 'app/db', { password: 'p1' });
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    expectOk(post(w, 'west', `${DR}/secondary/enable`, { token }));
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', connection_state: 'connecting', last_remote_wal: 0 });

    w.advance(1000);
    writeKv(w, 'east', 'app/api', { key: 'k2' });
    w.advance(1000);
    const east = drStatus(w, 'east');
    const west = drStatus(w, 'west');
    expect(west).toMatchObject({ mode: 'secondary', state: 'stream-wals', connection_state: 'ready', cluster_id: east.cluster_id, secondary_id: 'west' });
    expect(west.last_remote_wal).toBe(east.last_wal);
    expect(west.merkle_root).toBe(east.merkle_root);
    expect(east.secondaries).toMatchObject([{ node_id: 'west', connection_status: 'connected' }]);
    // A DR secondary answers no client request, so its data is checked through status (and after promotion).
    expectRefused(readKv(w, 'west', 'app/db', rootOf(w, 'east')), 400, 'path disabled in replication DR secondary mode');
  });

  it.skipIf(!operationTokensBuilt)('planned failover and failback: demote, promote with an operation token, re-point with update-primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    const root = rootOf(w, 'east'); // the DR secondaries hold the primary's tokens
    expectOk(writeKv(w, 'east', 'app', { v: 1 }));
    w.advance(1000);
    const setId = drStatus(w, 'east').cluster_id;

    // Failover: demote east, promote west.
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'secondary', cluster_id: setId, connection_state: 'idle' });
    const westOp = drOperationToken(w, 'west', 'east'); // west's operators use the primary's key shares
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: westOp }));
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'primary', cluster_id: setId, state: 'running' });
    expect(readKv(w, 'west', 'app', root).body).toMatchObject({ data: { data: { v: 1 } } });
    expectOk(writeKv(w, 'west', 'app', { v: 2 }, root));
    // south still follows east's address, which no longer answers as a primary: it needs a new token.
    w.advance(1000);
    expect(drStatus(w, 'south')).toMatchObject({ connection_state: 'transient_failure', known_primary_cluster_addrs: [w.state.clusters.named('east').clusterAddr] });

    // The old primary rejoins under the new one with a token: no wipe, it catches up.
    const eastOp = drOperationToken(w, 'east', 'east');
    expectOk(post(w, 'east', `${DR}/secondary/update-primary`, { dr_operation_token: eastOp, token: secondaryToken(w, 'west', 'east', {}, root) }));
    const southOp = drOperationToken(w, 'south', 'east');
    expectOk(post(w, 'south', `${DR}/secondary/update-primary`, { dr_operation_token: southOp, update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }));
    w.advance(1000);
    const west = drStatus(w, 'west');
    for (const c of ['east', 'south']) expect(drStatus(w, c)).toMatchObject({ state: 'stream-wals', connection_state: 'ready', last_remote_wal: west.last_wal, merkle_root: west.merkle_root });
    expect(west.secondaries.map((s: any) => s.node_id)).toEqual(['east', 'south']);

    // Failback: demote west, promote east again, re-point west at east.
    expectOk(post(w, 'west', `${DR}/primary/demote`, {}, root));
    expectOk(post(w, 'east', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'east', 'east') }));
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token: secondaryToken(w, 'east', 'west-failback', {}, root) }));
    w.advance(1000);
    expect(readKv(w, 'east', 'app', root).body).toMatchObject({ data: { data: { v: 2 } } });
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', connection_state: 'ready', secondary_id: 'west-failback', cluster_id: setId });
  });

  it.skipIf(!operationTokensBuilt)('unplanned failover: the primary crashes, the secondary is promoted, the old primary restarts still a primary', () => {
    const w = drWorld();
    drPair(w);
    const root = rootOf(w, 'east');
    expectOk(writeKv(w, 'east', 'before', { v: 1 }));
    w.advance(1000);
    w.crash('east');
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'transient_failure', primaries: [{ connection_status: 'disconnected' }] });

    // A primary that is down is no reason to refuse: no force needed.
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(readKv(w, 'west', 'before', root).body).toMatchObject({ data: { data: { v: 1 } } });
    expectOk(writeKv(w, 'west', 'during', { v: 2 }, root));

    w.restart('east');
    const east = drStatus(w, 'east');
    const west = drStatus(w, 'west');
    expect([east.mode, west.mode]).toEqual(['primary', 'primary']);
    expect(east.cluster_id).toBe(west.cluster_id);
    const found = twoPrimaries().observe({ state: w.state, before: w.state, events: [] });
    expect(found).toMatchObject([{ id: 'two-primaries', clusters: ['east', 'west'] }]);
  });

  it.skipIf(!operationTokensBuilt)('revocation: a revoked secondary receives nothing until it is given a new token', () => {
    const w = drWorld();
    drPair(w);
    expectOk(writeKv(w, 'east', 'k1', { v: 1 }));
    w.advance(1000);
    const before = drStatus(w, 'west').last_remote_wal;

    expect(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }).status).toBe(204);
    expect(drStatus(w, 'east')).toMatchObject({ known_secondaries: [], secondaries: [] });
    expectOk(writeKv(w, 'east', 'k2', { v: 2 }));
    w.advance(10_000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'transient_failure', last_remote_wal: before });

    // A new token for the same id, redeemed with update-primary, lets it back.
    const token = secondaryToken(w, 'east', 'west');
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token }));
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'ready', last_remote_wal: drStatus(w, 'east').last_wal });
  });

  it('token expiry: a token older than its 30m ttl is refused, and nothing is wiped', () => {
    const w = drWorld();
    writeKv(w, 'west', 'mine', { v: 1 });
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    w.advance(31 * 60_000);
    const hash = w.stateHash();
    expectRefused(post(w, 'west', `${DR}/secondary/enable`, { token }), 500, 'error response unwrapping secondary token');
    expect(w.stateHash()).toBe(hash);
    expect(readKv(w, 'west', 'mine', rootOf(w, 'west')).status).toBe(200);
  });
});
