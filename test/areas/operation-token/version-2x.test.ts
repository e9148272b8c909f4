// The 2.x rules of the version axis: the generation endpoints need a token unless the server's
// enable_unauthenticated_access names their family (changed by a reload, SIGHUP); a DR secondary
// takes its primary's root token as a DR operation token; leaving the break-glass setting on after
// a promotion is the hazard unauthenticated-ceremony-open. 1.x clusters keep the old rules.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { decodeToken } from '../../../src/areas/core/crypto/otp.js';
import { Watch } from '../../../src/check/catalogue.js';
import { unauthenticatedCeremonyOpen } from '../../../src/areas/operation-token/monitors/unauthenticated-ceremony-open.js';

const DR = 'sys/replication/dr';
const ATTEMPT = `${DR}/secondary/generate-operation-token/attempt`;

function drPair(version: string, extra: Record<string, unknown> = {}) {
  const w = World.create({ east: { version }, west: { version, ...extra } }, { seed: 8 });
  const root = w.state.operators.east.rootToken;
  const send = (cluster: string, method: string, path: string, body?: unknown, token?: string) => w.request(cluster, { method, path, body, token });
  send('east', 'POST', `${DR}/primary/enable`, {}, root);
  const t = (send('east', 'POST', `${DR}/primary/secondary-token`, { id: 'west' }, root).body as any).wrap_info.token;
  expect(send('west', 'POST', `${DR}/secondary/enable`, { token: t }, w.state.operators.west.rootToken).status).toBe(200);
  w.advance(1000);
  return { w, send, root };
}

describe('the version axis', () => {
  it('1.16 and 1.21 serve generation attempts without a token; 2.0, 2.1 and 1.19.17 need one', () => {
    for (const [version, status] of [['1.16.0', 200], ['1.21.4', 200], ['1.19.16', 200], ['1.19.17', 403], ['2.0.0', 403], ['2.1.0', 403]] as const) {
      const { send } = drPair(version);
      expect(send('west', 'POST', ATTEMPT, {}).status, version).toBe(status);
      expect(World.create({ a: { version } }).request('a', { method: 'GET', path: 'sys/generate-root/attempt' }).status, version).toBe(status);
    }
  });

  it('2.x: enable_unauthenticated_access re-opens the family, a reload closes it again, and sys/config/state/sanitized reports it', () => {
    const { w, send } = drPair('2.1.0');
    const westRoot = w.state.operators.west.rootToken;
    expect((send('west', 'GET', 'sys/config/state/sanitized', undefined, westRoot).status)).toBe(400); // closed on a DR secondary
    w.areaStep({ kind: 'reload', on: 'west', enableUnauthenticatedAccess: ['generate-operation-token'] });
    expect(send('west', 'POST', ATTEMPT, {}).status).toBe(200);
    expect(send('west', 'DELETE', ATTEMPT).status).toBe(204);
    w.areaStep({ kind: 'reload', on: 'west', enableUnauthenticatedAccess: [] });
    expect(send('west', 'POST', ATTEMPT, {}).status).toBe(403);
    const a = World.create({ a: { version: '2.0.0', enableUnauthenticatedAccess: ['generate-root'] } });
    const sanitized = a.request('a', { method: 'GET', path: 'sys/config/state/sanitized', token: a.state.operators.a.rootToken }).body as any;
    expect(sanitized.data.enable_unauthenticated_access).toEqual(['generate-root']);
    expect(a.request('a', { method: 'POST', path: 'sys/generate-root/attempt', body: {} }).status).toBe(200);
    expect(() => World.create({ a: { version: '1.16.0' } }).areaStep({ kind: 'reload', on: 'a', enableUnauthenticatedAccess: ['rekey'] })).toThrow(/has no enable_unauthenticated_access/);
  });

  it('2.x: the primary’s root token authenticates an attempt and stands in for a DR operation token on the DR secondary; 1.x: it does not', () => {
    const two = drPair('2.0.0');
    expect(two.send('west', 'POST', ATTEMPT, {}, two.root).status).toBe(200);
    two.send('west', 'DELETE', ATTEMPT, undefined, two.root);
    expect(two.send('west', 'POST', `${DR}/secondary/promote`, { dr_operation_token: two.root }).status).toBe(200);
    const one = drPair('1.16.0');
    expect(one.send('west', 'POST', `${DR}/secondary/promote`, { dr_operation_token: one.root }).status).toBe(400);
  });

  it('2.x: refuses uncleaned paths and token headers over 8192 bytes; 1.16 does not', () => {
    const two = World.create({ a: { version: '2.0.0' } });
    expect(two.request('a', { method: 'GET', path: 'sys//health' }).status).toBe(400);
    expect(two.request('a', { method: 'GET', path: 'sys/./health' }).status).toBe(400);
    expect(two.request('a', { method: 'GET', path: 'secret/data/x', token: 'hvs.' + 'a'.repeat(9000) }).status).toBe(431);
    const one = World.create({ a: { version: '1.16.0' } });
    expect(one.request('a', { method: 'GET', path: 'secret/data/x', token: 'hvs.' + 'a'.repeat(9000) }).status).toBe(403);
  });
});

describe('hazard unauthenticated-ceremony-open', () => {
  function breakGlass(close: boolean) {
    const { w, send } = drPair('2.1.0');
    const watch = new Watch(w, [unauthenticatedCeremonyOpen]);
    const step = (f: () => void) => {
      f();
      watch.afterStep();
    };
    step(() => w.crash('east'));
    step(() => w.areaStep({ kind: 'reload', on: 'west', enableUnauthenticatedAccess: ['generate-operation-token'] }));
    // The ceremony with the primary's key shares and no token.
    let op = '';
    step(() => {
      const a = send('west', 'POST', ATTEMPT, {}).body as any;
      let enc = '';
      for (const key of w.state.operators.east.keys.slice(0, 3)) enc = (send('west', 'POST', `${DR}/secondary/generate-operation-token/update`, { key, nonce: a.nonce }).body as any).encoded_token ?? enc;
      op = decodeToken(enc, a.otp);
    });
    step(() => expect(watch.send('west', { method: 'POST', path: `${DR}/secondary/promote`, body: { dr_operation_token: op } }).response.status).toBe(200));
    if (close) step(() => w.areaStep({ kind: 'reload', on: 'west', enableUnauthenticatedAccess: [] }));
    step(() => w.advance(1000));
    return watch.findings.filter((f) => f.id === 'unauthenticated-ceremony-open');
  }

  it('arises when the setting is left on after the promotion, not when it is turned off at once', () => {
    expect(breakGlass(false)).toMatchObject([{ kind: 'hazard', clusters: ['west'] }]);
    expect(breakGlass(true)).toEqual([]);
  });
});
