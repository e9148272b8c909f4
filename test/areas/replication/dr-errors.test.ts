// The error rows of the spec that concern DR replication (update-primary's are pinned with their
// rules in dr-rules), promotion's safety checks, and the wrong-role refusals.
import { describe, expect, it } from 'vitest';
import { DR, drOperationToken, drPair, drStatus, drWorld, enablePrimary, enableSecondary, expectOk, expectRefused, operationTokensBuilt, post } from './helpers.js';

describe.skipIf(!operationTokensBuilt)('promote when the safety checks fail', () => {
  it('is refused without force while the initial sync has not completed, and allowed with force', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.partition(['east', 'west']); // it never gets to sync
    w.advance(10_000);
    const op = drOperationToken(w, 'west', 'east');
    const hash = w.stateHash();
    const r = post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op });
    expectRefused(r, 400, 'cannot promote: replication is in an error state (the initial sync from the primary has not completed)');
    expect(w.stateHash()).toBe(hash);
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op, force: true }));
    expect(drStatus(w, 'west').mode).toBe('primary');
    const promoted = w.log.at(-1) as { type: string; force: boolean; safetyChecksPassed: boolean };
    expect(promoted).toMatchObject({ type: 'replication-secondary-promoted', force: true, safetyChecksPassed: false });
  });

  it('is refused without force while the merkle tree is corrupted, and allowed with force', () => {
    const w = drWorld();
    drPair(w);
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 1, subpage: 2 });
    const op = drOperationToken(w, 'west', 'east');
    expectRefused(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }), 400, 'its merkle tree is corrupted');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op, force: 'true' }));
  });

  it('is not refused because the primary is down', () => {
    const w = drWorld();
    drPair(w);
    w.crash('east');
    w.advance(1000);
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
  });
});

describe.skipIf(!operationTokensBuilt)('secondary-side calls on a cluster that is not a secondary', () => {
  it('answer "Not a DR secondary." once the operation token is accepted', () => {
    const w = drWorld();
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }));
    // Still holding a valid operation token, the (now primary) cluster is told why the call does not apply.
    for (const p of ['promote', 'disable', 'update-primary']) {
      const r = post(w, 'west', `${DR}/secondary/${p}`, { dr_operation_token: op, token: '' });
      expect(r.status).toBe(400);
      expect((r.body as { errors: string[] }).errors[0]).toMatch(/^Not a DR secondary\.$|invalid DR operation token/);
    }
    expect(w.state.clusters.named('west').replication.dr.role).toBe('primary');
  });
});
