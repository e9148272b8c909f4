import { describe, expect, it } from 'vitest';
import { operationTokenGate } from '../../../../src/areas/operation-token/monitors/operation-token-gate.js';
import { DR, Watched, folded, response, stepOf, world } from '../../../check/helpers.js';

/** west a DR secondary of east, synced. */
function drPair(x: Watched): void {
  x.drPrimary('east');
  x.drSecondary('east', 'west');
  x.advance(1000);
}

describe('invariant operation-token-gate', () => {
  it('holds through the API: every gated call with the token, refusals without it, and after a delete', () => {
    const x = new Watched(world(), [operationTokenGate]);
    drPair(x);
    expect(x.post('west', `${DR}/secondary/merkle-check`, {}, null).status).toBe(400);
    const token = x.operationToken('west', 'east');
    x.ok('west', `${DR}/secondary/merkle-check`, { dr_operation_token: token }, null);
    x.ok('west', `${DR}/secondary/reindex`, { dr_operation_token: token }, null);
    expect(x.post('west', `${DR}/secondary/promote`, { dr_operation_token: 'hvs.wrong' }, null).status).toBe(400);
    x.ok('west', `${DR}/secondary/operation-token/delete`, { dr_operation_token: token }, null);
    expect(x.post('west', `${DR}/secondary/promote`, { dr_operation_token: token }, null).status).toBe(400);
    x.ok('east', `${DR}/primary/demote`);
    x.ok('west', `${DR}/secondary/promote`, { dr_operation_token: x.operationToken('west', 'east') }, null);
    x.ok('east', `${DR}/secondary/update-primary`, { dr_operation_token: x.operationToken('east', 'east'), token: x.drToken('west', 'east', x.root('east')) }, null);
    x.advance(1000);
    x.ok('east', `${DR}/secondary/disable`, { dr_operation_token: x.operationToken('east', 'east') }, null);
    expect(x.findings).toEqual([]);
  });

  it('catches a promotion of a DR secondary that never generated a token (a handler that skipped the check)', () => {
    const x = new Watched(world(), []);
    drPair(x);
    const m = operationTokenGate();
    const found = m.observe(folded(x.w.state, [{ type: 'replication-secondary-promoted', at: 1000, kind: 'dr', cluster: 'west', primaryClusterAddr: '', force: false, safetyChecksPassed: true, role: 'primary' }]));
    expect(found).toMatchObject([{ kind: 'violation', id: 'operation-token-gate', clusters: ['west'] }]);
  });

  it('catches a reindex accepted after the token was deleted (a reducer that forgot the delete)', () => {
    const x = new Watched(world(), []);
    drPair(x);
    x.operationToken('west', 'east');
    const m = operationTokenGate();
    const found = m.observe(
      folded(x.w.state, [
        { type: 'dr-operation-token-deleted', at: 1000, cluster: 'west' },
        { type: 'reindex-started', at: 1000, cluster: 'west', until: 2000, objects: 1, diff: false, force: false, skipFlush: false },
      ]),
    );
    expect(found).toMatchObject([{ id: 'operation-token-gate', clusters: ['west'] }]);
    expect(found[0].message).toContain('reindex');
  });

  it('does not gate the same calls off a DR secondary', () => {
    const x = new Watched(world(), []);
    const m = operationTokenGate();
    expect(m.observe(folded(x.w.state, [{ type: 'dr-operation-token-deleted', at: 0, cluster: 'east' }]))).toEqual([]);
  });

  it('catches a gated call answered with success although the token given was not the cluster’s', () => {
    const x = new Watched(world(), []);
    drPair(x);
    x.operationToken('west', 'east');
    const before = x.w.state;
    const m = operationTokenGate();
    const r = response('west', { method: 'POST', path: `${DR}/secondary/merkle-check`, body: { dr_operation_token: 'hvs.not-it' } }, { status: 200, body: {} }, before);
    expect(m.observe({ before, events: [], state: before, responses: [r] })).toMatchObject([{ id: 'operation-token-gate', clusters: ['west'] }]);
    // The same answer with the right token is fine.
    const good = response('west', { method: 'POST', path: `${DR}/secondary/merkle-check`, body: { dr_operation_token: before.clusters.named('west').drOperationToken } }, { status: 200, body: {} }, before);
    expect(operationTokenGate().observe({ before, events: [], state: before, responses: [good] })).toEqual([]);
  });

  it('takes the token as wiped when the cluster is enabled as a secondary again', () => {
    const w = world();
    const m = operationTokenGate();
    m.observe(stepOf(w, () => {}));
    const found = m.observe({
      before: w.state,
      state: w.state,
      events: [
        { type: 'generation-completed', at: 0, cluster: 'west', strategy: 'dr-operation-token', nonce: 'n', share: 's', token: 'hvs.t', accessor: '', encodedToken: 'e' },
        { type: 'replication-secondary-enabled', at: 0, kind: 'dr', cluster: 'west', primary: 'east', primaryApiAddr: '', primaryClusterAddr: '', knownPrimaryClusterAddrs: [], secondaryId: 'west', jti: 'j', clusterId: 'c', role: 'secondary.following' },
        { type: 'merkle-checked', at: 0, cluster: 'west' },
      ],
    });
    expect(found).toMatchObject([{ id: 'operation-token-gate', clusters: ['west'] }]);
  });
});
