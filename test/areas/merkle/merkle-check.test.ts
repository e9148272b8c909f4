import { describe, expect, it } from 'vitest';
import { merkleRootOf, merkleTreeRootOf } from '../../../src/areas/merkle/merkle.js';
import { rfc3339 } from '../../../src/kernel/clock.js';
import { MERKLE_CHECK, REINDEX, bodyOf, drOperationTokenOf, drSecondaryWorld, errorsOf, post } from '../operation-token/worlds.js';

function world() {
  const w = drSecondaryWorld({ kvKeys: 2 });
  const token = drOperationTokenOf(w);
  return { w, token };
}

const check = (w: ReturnType<typeof world>['w'], token: string) => w.request('west', post(MERKLE_CHECK, { dr_operation_token: token }));
const b64Of = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('merkle-check on a DR secondary', () => {
  it('reports the damage the corrupt fault made, in the service report shape', () => {
    const { w, token } = world();
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 12, subpage: 40 });
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 3, subpage: 17 });
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 3, subpage: 5 });
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'local', page: 0, subpage: 255 });
    w.advance(2_500);
    const r = check(w, token);
    expect(r.status).toBe(200);
    const c = w.state.clusters.named('west');
    expect(bodyOf(r).data).toEqual({
      merkle_corruption_report: {
        corrupted_root: true,
        corrupted_tree_map: {
          '1': {
            corrupted_index_tuples_map: { '3': { corrupted: true, subpages: [5, 17] }, '12': { corrupted: true, subpages: [40] } },
            corrupted_subtree_root: true,
            root_hash: b64Of(merkleTreeRootOf(c, 'replicated')),
            tree_type: 'replicated',
          },
          '2': {
            corrupted_index_tuples_map: { '0': { corrupted: true, subpages: [255] } },
            corrupted_subtree_root: true,
            root_hash: b64Of(merkleTreeRootOf(c, 'local')),
            tree_type: 'local',
          },
        },
        last_corruption_check_epoch: rfc3339(2_500),
      },
    });
    expect(Buffer.from(bodyOf(r).data.merkle_corruption_report.corrupted_tree_map['1'].root_hash, 'base64')).toHaveLength(20);
  });

  it('an undamaged cluster reports no corruption and null tuple maps', () => {
    const { w, token } = world();
    const report = bodyOf(check(w, token)).data.merkle_corruption_report;
    expect(report.corrupted_root).toBe(false);
    for (const key of ['1', '2']) expect(report.corrupted_tree_map[key]).toMatchObject({ corrupted_index_tuples_map: null, corrupted_subtree_root: false });
  });

  it('damage in one tree marks only that subtree', () => {
    const { w, token } = world();
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'local', page: 7, subpage: 1 });
    const report = bodyOf(check(w, token)).data.merkle_corruption_report;
    expect(report.corrupted_root).toBe(true);
    expect(report.corrupted_tree_map['1'].corrupted_subtree_root).toBe(false);
    expect(report.corrupted_tree_map['2'].corrupted_subtree_root).toBe(true);
  });

  it('the replicated root hash is the status record merkle root, and changes with damage', () => {
    const { w, token } = world();
    const before = merkleRootOf(w.state.clusters.named('west'));
    expect(bodyOf(check(w, token)).data.merkle_corruption_report.corrupted_tree_map['1'].root_hash).toBe(b64Of(before));
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 1, subpage: 1 });
    expect(merkleRootOf(w.state.clusters.named('west'))).not.toBe(before);
  });

  it('records the check time as an event', () => {
    const { w, token } = world();
    w.advance(700);
    check(w, token);
    expect(w.log.at(-1)).toMatchObject({ type: 'merkle-checked', cluster: 'west', at: 700 });
    expect(w.state.clusters.named('west').merkle.lastCorruptionCheckAt).toBe(700);
  });

  it('after a reindex ends, the check finds nothing', () => {
    const { w, token } = world();
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 2, subpage: 2 });
    w.request('west', post(REINDEX, { dr_operation_token: token }));
    w.advance(60_000);
    expect(bodyOf(check(w, token)).data.merkle_corruption_report.corrupted_root).toBe(false);
  });

  it('a wrong token is refused and changes nothing', () => {
    const { w } = world();
    const hash = w.stateHash();
    const r = check(w, 'hvs.wrong');
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual(['invalid DR operation token']);
    expect(w.stateHash()).toBe(hash);
  });
});
