// The endpoints real clients call around the admin API: health, seal status, wrapping lookup and
// unwrap, and token lookup-self, with the service's status codes by role.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { dataOf, errorsOf } from '../../kernel/http/helpers.js';

function drPair(): { w: World; token: string } {
  const w = World.create({ east: {}, west: {} }, { seed: 3 });
  expect(w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: w.tokenNamed('east', 'root') }).status).toBe(200);
  const t = w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/secondary-token', body: { id: 'west' }, token: w.tokenNamed('east', 'root') });
  return { w, token: (t.body as { wrap_info: { token: string } }).wrap_info.token };
}

describe('sys/health answers with the service status code for the cluster role', () => {
  it('200 on an active cluster, with its replication modes', () => {
    const w = World.create({ east: {} });
    const r = w.request('east', { method: 'GET', path: 'sys/health' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ initialized: true, sealed: false, standby: false, replication_dr_mode: 'disabled', replication_performance_mode: 'disabled', version: '1.16.0' });
  });

  it('472 on a DR secondary, which still answers it (the path stays open)', () => {
    const { w, token } = drPair();
    expect(w.request('west', { method: 'POST', path: 'sys/replication/dr/secondary/enable', body: { token }, token: w.tokenNamed('west', 'root') }).status).toBe(200);
    const r = w.request('west', { method: 'GET', path: 'sys/health' });
    expect(r.status).toBe(472);
    expect(r.body).toMatchObject({ replication_dr_mode: 'secondary' });
    expect(w.request('west', { method: 'GET', path: 'sys/health?drsecondarycode=200' }).status).toBe(200);
    expect(w.request('east', { method: 'GET', path: 'sys/health' }).body).toMatchObject({ replication_dr_mode: 'primary' });
  });

  it('503 on a crashed cluster; a bad override code is a 400 naming the parameter', () => {
    const w = World.create({ east: {} });
    expect(errorsOf(w.request('east', { method: 'GET', path: 'sys/health?activecode=abc' }))[0]).toContain('activecode');
    w.crash('east');
    expect(w.request('east', { method: 'GET', path: 'sys/health' }).status).toBe(503);
  });
});

describe('sys/seal-status', () => {
  it('reports an unsealed shamir seal with the keyring threshold and shares', () => {
    const w = World.create({ east: { keyShares: 4, keyThreshold: 2 } });
    const r = w.request('east', { method: 'GET', path: 'sys/seal-status' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: 'shamir', initialized: true, sealed: false, t: 2, n: 4 });
  });
});

describe('sys/wrapping/lookup and unwrap know the activation tokens a primary issued', () => {
  it('lookup returns creation path, time and ttl of a live activation token, and changes nothing', () => {
    const { w, token } = drPair();
    const hash = w.stateHash();
    const r = w.request('east', { method: 'POST', path: 'sys/wrapping/lookup', body: { token } });
    expect(r.status).toBe(200);
    expect(dataOf(r)).toMatchObject({ creation_path: 'sys/replication/dr/primary/secondary-token', creation_ttl: 1800 });
    expect(w.stateHash()).toBe(hash);
  });

  it('a spent, expired or unknown token is not valid', () => {
    const { w, token } = drPair();
    expect(errorsOf(w.request('east', { method: 'POST', path: 'sys/wrapping/lookup', body: { token: 'nope' } }))).toEqual(['wrapping token is not valid or does not exist']);
    expect(w.request('west', { method: 'POST', path: 'sys/wrapping/lookup', body: { token } }).status).toBe(400);
    w.advance(31 * 60_000);
    expect(w.request('east', { method: 'POST', path: 'sys/wrapping/lookup', body: { token } }).status).toBe(400);
  });

  it('unwrap of a live activation token answers 501 (its payload is not simulated), of anything else 400', () => {
    const { w, token } = drPair();
    const r = w.request('east', { method: 'POST', path: 'sys/wrapping/unwrap', body: { token } });
    expect(r.status).toBe(501);
    expect(errorsOf(r)[0]).toMatch(/not implemented in replsim/);
    expect(w.request('east', { method: 'POST', path: 'sys/wrapping/unwrap', body: { token: 'x' } }).status).toBe(400);
    expect(w.request('east', { method: 'POST', path: 'sys/wrapping/unwrap', body: {} }).status).toBe(400);
  });
});

describe('auth/token/lookup-self', () => {
  it('describes the calling token; an unknown or missing token gets 403', () => {
    const w = World.create({ east: { tokens: { ops: { policy: { 'secret/*': ['read'] } } } } });
    const root = w.request('east', { method: 'GET', path: 'auth/token/lookup-self', token: w.tokenNamed('east', 'root') });
    expect(root.status).toBe(200);
    expect(dataOf(root)).toMatchObject({ id: w.tokenNamed('east', 'root'), policies: ['root'], path: 'auth/token/root' });
    expect(dataOf(w.request('east', { method: 'GET', path: 'auth/token/lookup-self', token: w.tokenNamed('east', 'ops') }))).toMatchObject({ policies: ['default', 'ops'] });
    expect(w.request('east', { method: 'GET', path: 'auth/token/lookup-self', token: 'hvs.nope' }).status).toBe(403);
    expect(w.request('east', { method: 'GET', path: 'auth/token/lookup-self' }).status).toBe(403);
  });

  it('is closed on a DR secondary like any client path', () => {
    const { w, token } = drPair();
    w.request('west', { method: 'POST', path: 'sys/replication/dr/secondary/enable', body: { token }, token: w.tokenNamed('west', 'root') });
    expect(errorsOf(w.request('west', { method: 'GET', path: 'auth/token/lookup-self', token: w.tokenNamed('east', 'root') }))).toEqual(['path disabled in replication DR secondary mode']);
  });
});
