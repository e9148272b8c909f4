import { describe, expect, it } from 'vitest';
import { revokedStaysBarred } from '../../../../src/areas/replication/monitors/revoked-stays-barred.js';
import { DR, PERF, Watched, folded, world } from '../../../check/helpers.js';

describe('invariant revoked-stays-barred', () => {
  it('holds through the API: revoked, barred while the primary writes, back with a new token', () => {
    const x = new Watched(world(), [revokedStaysBarred]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    x.ok('east', `${DR}/primary/revoke-secondary`, { id: 'west' });
    x.write('east', 'k', { v: 1 });
    x.advance(10_000);
    const token = x.drToken('east', 'west');
    x.ok('west', `${DR}/secondary/update-primary`, { dr_operation_token: x.operationToken('west', 'east'), token }, null);
    x.advance(1000);
    expect(x.w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(x.w.state.clusters.named('east').wal.last);
    // Performance too: revoked, then enabled again (a wipe) with a new token.
    x.perfPrimary('south');
    x.perfSecondary('south', 'east');
    x.advance(1000);
    x.ok('south', `${PERF}/primary/revoke-secondary`, { id: 'east' });
    x.write('south', 'p', { v: 1 });
    x.advance(1000);
    expect(x.findings).toEqual([]);
  });

  it('catches a delivery to a revoked secondary (a streaming process that ignored the revocation)', () => {
    const x = new Watched(world(), []);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    const m = revokedStaysBarred();
    m.observe(folded(x.w.state, [{ type: 'replication-secondary-revoked', at: 1000, kind: 'dr', cluster: 'east', id: 'west' }]));
    x.write('east', 'k', { v: 1 });
    const wal = x.w.state.clusters.named('east').wal.last;
    const found = m.observe(folded(x.w.state, [{ type: 'replication-wal-delivered', at: 1020, kind: 'dr', cluster: 'west', primary: 'east', wal }]));
    expect(found).toMatchObject([{ kind: 'violation', id: 'revoked-stays-barred', clusters: ['west', 'east'] }]);
  });

  it('keeps the bar through update-primary with addresses, which reuses the revoked credentials', () => {
    const x = new Watched(world(), []);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    const m = revokedStaysBarred();
    const s = x.w.state;
    const r = s.clusters.named('west').replication.dr;
    const found = m.observe(
      folded(s, [
        { type: 'replication-secondary-revoked', at: 1000, kind: 'dr', cluster: 'east', id: 'west' },
        { type: 'replication-secondary-primary-updated', at: 1000, kind: 'dr', cluster: 'west', via: 'addresses', primary: 'east', primaryApiAddr: r.primaryApiAddr, primaryClusterAddr: r.primaryClusterAddr, knownPrimaryClusterAddrs: [s.clusters.named('east').clusterAddr], secondaryId: r.secondaryId, jti: r.jti, clusterId: r.clusterId, role: 'secondary.following' },
        // A streaming process that ignored the bar delivers the revocation's own WAL. (Not a sync: the
        // connection machine refuses to take up a link whose credentials are revoked, so no log can hold one.)
        { type: 'replication-wal-delivered', at: 1040, kind: 'dr', cluster: 'west', primary: 'east', wal: s.clusters.named('east').wal.last + 1 },
      ]),
    );
    expect(found).toMatchObject([{ id: 'revoked-stays-barred', clusters: ['west', 'east'] }]);
  });
});
