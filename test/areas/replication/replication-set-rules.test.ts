// Rules that belong to a replication set rather than to one primary.
import { describe, expect, it } from 'vitest';
import { DR, drOperationToken, drPair, drWorld, enableSecondary, expectOk, expectRefused, post, secondaryToken, writeKv } from './helpers.js';

describe('replication set rules', () => {
  it('update-primary refuses a token from another replication set: re-enabling a primary changes its cluster_id, and its old secondaries need a wipe', () => {
    const w = drWorld();
    drPair(w);
    expectOk(post(w, 'east', `${DR}/primary/disable`));
    expectOk(post(w, 'east', `${DR}/primary/enable`));
    const op = drOperationToken(w, 'west', 'east');
    const token = secondaryToken(w, 'east', 'west-again');
    const before = w.stateHash();
    expectRefused(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: op, token }, null), 400, /another DR replication set/);
    expect(w.stateHash()).toBe(before);
  });

  it('a secondary revoked by the old primary stays barred from the promoted one until it gets a new token', () => {
    const w = drWorld({ clusters: { east: {}, west: {}, south: {} } });
    drPair(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    expectOk(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }));
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    const southOp = drOperationToken(w, 'south', 'east');
    expectOk(post(w, 'south', `${DR}/secondary/promote`, { dr_operation_token: southOp }, null));
    const westOp = drOperationToken(w, 'west', 'east');
    // The address ping is made with west's revoked credentials: south, which knows them revoked, does not answer.
    const hash = w.stateHash();
    expectRefused(
      post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: westOp, update_primary_addrs: [w.state.clusters.named('south').clusterAddr] }, null),
      400,
      /none of update_primary_addrs answered/,
    );
    expect(w.stateHash()).toBe(hash);
    const walBefore = w.state.clusters.named('west').replication.dr.lastRemoteWal;
    writeKv(w, 'south', 'after-failover', { v: 1 }, w.state.operators.east.rootToken);
    w.advance(5000);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(walBefore);
    // south took up east's known secondaries (DR replicates them) as they were at its last sync, before
    // the revocation: it lists west, and revoking it there is what lets the id be issued again.
    expect(w.state.clusters.named('south').replication.dr.issued.west?.revoked).toBe(false);
    expectOk(post(w, 'south', `${DR}/primary/revoke-secondary`, { id: 'west' }, w.state.operators.east.rootToken));
    // A new token for the same id lets it back.
    const fresh = secondaryToken(w, 'south', 'west', {}, w.state.operators.east.rootToken);
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: westOp, token: fresh }, null));
    w.advance(5000);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBeGreaterThan(walBefore);
  });
});
