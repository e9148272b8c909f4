import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import {
  DR_ATTEMPT,
  DR_UPDATE,
  MERKLE_CHECK,
  OP_TOKEN_DELETE,
  REINDEX,
  bodyOf,
  drOperationTokenOf,
  drSecondaryWorld,
  errorsOf,
  generateWithOtp,
  post,
} from './worlds.js';
import { decodeToken } from '../../../src/areas/core/crypto/otp.js';

const PROMOTE = 'sys/replication/dr/secondary/promote';

/** Whether the other helper's DR endpoints are built yet (a placeholder answers 501). */
const promoteBuilt = drSecondaryWorld().request('west', post(PROMOTE, {})).status !== 501;
const enableBuilt = World.create({ east: {} }).request('east', post('sys/replication/dr/secondary/enable', { token: 'x' })).status !== 501;

describe('DR operation token deletion', () => {
  it('deletes the token: 204, and the cluster has none left', () => {
    const w = drSecondaryWorld();
    const token = drOperationTokenOf(w);
    const r = w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: token }));
    expect(r).toEqual({ status: 204, body: null });
    expect(w.state.clusters.named('west').drOperationToken).toBeNull();
    expect(w.log.at(-1)).toMatchObject({ type: 'dr-operation-token-deleted', cluster: 'west' });
  });

  it('after deletion the token is refused everywhere it was needed', () => {
    const w = drSecondaryWorld();
    const token = drOperationTokenOf(w);
    w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: token }));
    const hash = w.stateHash();
    for (const path of [OP_TOKEN_DELETE, REINDEX, MERKLE_CHECK]) {
      const r = w.request('west', post(path, { dr_operation_token: token }));
      expect(r.status).toBe(400);
      expect(errorsOf(r)).toEqual(['invalid DR operation token']);
    }
    expect(w.stateHash()).toBe(hash);
  });

  it.skipIf(!promoteBuilt)('after deletion, promote with the deleted token is refused', () => {
    const w = drSecondaryWorld();
    const token = drOperationTokenOf(w);
    w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: token }));
    const hash = w.stateHash();
    const r = w.request('west', post(PROMOTE, { dr_operation_token: token }));
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual(['invalid DR operation token']);
    expect(w.stateHash()).toBe(hash);
  });

  it('a wrong or missing token is refused and changes nothing', () => {
    const w = drSecondaryWorld();
    drOperationTokenOf(w);
    const hash = w.stateHash();
    expect(errorsOf(w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: 'hvs.wrong' })))).toEqual(['invalid DR operation token']);
    expect(errorsOf(w.request('west', post(OP_TOKEN_DELETE, {})))).toEqual(['DR operation token was not provided']);
    expect(w.stateHash()).toBe(hash);
  });

  it('with no token ever generated, deletion is refused', () => {
    const w = drSecondaryWorld();
    expect(errorsOf(w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: 'hvs.anything' })))).toEqual(['invalid DR operation token']);
  });

  it('a new token can be generated after deletion', () => {
    const w = drSecondaryWorld();
    const first = drOperationTokenOf(w);
    w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: first }));
    const second = drOperationTokenOf(w);
    expect(second).not.toBe(first);
    expect(w.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: second })).status).toBe(204);
  });
});

describe.skipIf(!enableBuilt)('DR operation token on a secondary enabled through the API', () => {
  it('is generated with the primary key shares, since enabling replaces the keyring', () => {
    const w = World.create({ east: {}, west: {} });
    const root = w.tokenNamed('east', 'root');
    expect(w.request('east', { ...post('sys/replication/dr/primary/enable', {}), token: root }).status).toBeLessThan(300);
    const issued = bodyOf(w.request('east', { ...post('sys/replication/dr/primary/secondary-token', { id: 'west' }), token: root }));
    const r = w.request('west', { ...post('sys/replication/dr/secondary/enable', { token: issued.wrap_info.token }), token: w.tokenNamed('west', 'root') });
    expect(r.status).toBeLessThan(300);
    w.advance(1_000);
    const { start, final } = generateWithOtp(w, 'west', { attempt: DR_ATTEMPT, update: DR_UPDATE }, w.state.operators.east.keys);
    expect(start.required).toBe(w.state.clusters.named('east').storage.keyring.threshold);
    expect(decodeToken(final.encoded_token, start.otp)).toBe(w.state.clusters.named('west').drOperationToken);
  });
});
