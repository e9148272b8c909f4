import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { CONNECTIONS, DEST, call, createDestination, expectOk, expectRefused, setAssociation, syncWorld, writeSecret } from './helpers.js';

/** east a DR primary and west its DR secondary, through the API. */
function drPair(w: World): void {
  const root = (c: string) => w.tokenNamed(c, 'root');
  expectOk(w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: root('east') }));
  const t = w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/secondary-token', body: { id: 'west' }, token: root('east') });
  expectOk(w.request('west', { method: 'POST', path: 'sys/replication/dr/secondary/enable', body: { token: (t.body as any).wrap_info.token }, token: root('west') }));
  w.advance(1_000);
}

describe('sync: rules that apply to every endpoint', () => {
  it('a DR secondary refuses every sync endpoint like any client path', () => {
    const w = World.create({ east: {}, west: {} });
    drPair(w);
    const token = w.tokenNamed('east', 'root');
    for (const [method, path, body] of [
      ['LIST', DEST],
      ['POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost],
      ['GET', `${DEST}/codehost/gh1`],
      ['DELETE', `${DEST}/codehost/gh1`],
      ['LIST', `${DEST}/codehost`],
      ['GET', `${DEST}/codehost/gh1/associations`],
      ['POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'a' }],
      ['POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'a' }],
      ['LIST', 'sys/sync/associations'],
      ['GET', 'sys/sync/associations/secret/a'],
      ['GET', 'sys/sync/associations/destinations?mount=secret&secret_name=a'],
    ] as [string, string, unknown?][]) {
      expectRefused(w.request('west', { method, path, body, token }), 400, 'path disabled in replication DR secondary mode', true);
    }
  });

  it('a DR secondary runs no sync job of its own', () => {
    const w = World.create({ east: {}, west: {} });
    const root = w.tokenNamed('west', 'root');
    w.request('west', { method: 'POST', path: 'secret/data/a', body: { data: { k: 'v' } }, token: root });
    w.request('west', { method: 'POST', path: `${DEST}/codehost/gh1`, body: CONNECTIONS.codehost, token: root });
    expectOk(w.request('west', { method: 'POST', path: `${DEST}/codehost/gh1/associations/set`, body: { mount: 'secret', secret_name: 'a' }, token: root }));
    drPair(w);
    w.advance(10_000);
    expect(w.log.filter((e) => e.type === 'sync-attempted')).toEqual([]);
  });

  it('a refused request appends nothing, draws nothing and leaves the state hash unchanged', () => {
    const w = syncWorld();
    writeSecret(w, 'a', { k: 'v' });
    createDestination(w, 'codehost', 'gh1');
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'a'));
    const hash = w.stateHash();
    const logged = w.log.length;
    const refusals = [
      call(w, 'POST', `${DEST}/codehost/gh2`, { access_token: 'x' }),
      call(w, 'POST', `${DEST}/webhost-project/v`, { ...CONNECTIONS['webhost-project'], deployment_environments: ['qa'] }),
      call(w, 'POST', `${DEST}/codehost/gh2`, CONNECTIONS.codehost, 'viewer'),
      call(w, 'DELETE', `${DEST}/codehost/gh1`),
      setAssociation(w, 'codehost', 'gh1', 'secret', 'a', 'syncer'),
      setAssociation(w, 'codehost', 'gh1', 'old', 'a'),
      setAssociation(w, 'codehost', 'gh1', 'secret', 'missing'),
      setAssociation(w, 'codehost', 'nope', 'secret', 'a'),
      call(w, 'GET', `${DEST}/codehost/none`),
      call(w, 'LIST', `${DEST}/cloudone-sm`),
    ];
    for (const r of refusals) expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
    expect(w.log.length).toBe(logged);
    expect(w.stateHash()).toBe(hash);
    // The generator was not drawn from: the next success gets the same request id as on a twin world.
    const twin = syncWorld();
    writeSecret(twin, 'a', { k: 'v' });
    createDestination(twin, 'codehost', 'gh1');
    expectOk(setAssociation(twin, 'codehost', 'gh1', 'secret', 'a'));
    expect((call(w, 'GET', `${DEST}/codehost/gh1`).body as any).request_id).toBe((call(twin, 'GET', `${DEST}/codehost/gh1`).body as any).request_id);
  });
});
