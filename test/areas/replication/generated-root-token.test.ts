// A root token made with sys/generate-root on a DR primary is storage like any other: it reaches the
// DR secondary, and works there once the secondary is promoted.
import { describe, expect, it } from 'vitest';
import { DR, drOperationToken, drPair, drWorld, expectOk, GENERATE_ROOT, generateWithShares, post, readKv, writeKv } from './helpers.js';

describe('root token generated on a DR primary', () => {
  it('replicates to the DR secondary and authenticates there after promotion', () => {
    const w = drWorld();
    drPair(w);
    writeKv(w, 'east', 'app', { v: 1 });
    // Deliver the write first, so only the new token is left to replicate.
    w.advance(1000);
    const generated = generateWithShares(w, 'east', 'east', GENERATE_ROOT)!;
    w.advance(1000);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(w.state.clusters.named('east').wal.last);
    const op = drOperationToken(w, 'west', 'east');
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    const r = readKv(w, 'west', 'app', generated);
    expect(r.status).toBe(200);
  });
});
