// The library reads `token` as a scenario does: a token's name (`root`, a declared token, `none`) or
// its value. The HTTP face reads values only: to the service a client's `X-Vault-Token: root` is no token.
import { afterEach, describe, expect, it } from 'vitest';
import { createWorld } from '../../src/entry/index.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';

const enable = { method: 'POST', path: 'sys/replication/dr/primary/enable' } as const;
const reader = { policy: { 'secret/*': ['read' as const] } };

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe("world.request(cluster, { token: 'root' })", () => {
  it('sends the cluster root token for `root`, as its value does', () => {
    const byName = createWorld(['east'], { seed: 3 });
    const byValue = createWorld(['east'], { seed: 3 });
    expect(byName.request('east', { ...enable, token: 'root' }).status).toBe(200);
    expect(byValue.request('east', { ...enable, token: byValue.tokenNamed('east', 'root') }).status).toBe(200);
    expect(byName.stateHash()).toBe(byValue.stateHash());
  });

  it('sends no token for `none` or no `token`, and an unknown string as a value (the service refuses both)', () => {
    const world = createWorld(['east']);
    expect(world.request('east', { ...enable, token: 'none' }).status).toBe(403);
    expect(world.request('east', enable).status).toBe(403);
    expect(world.request('east', { ...enable, token: 'roo' }).status).toBe(403);
  });

  it('finds a declared token on the receiving cluster, else on the one cluster declaring it, and says so when two do', () => {
    const world = createWorld({ east: { tokens: { ops: reader } }, west: {} });
    expect(world.tokenByName('west', 'ops')).toBe(world.tokenNamed('east', 'ops'));
    expect(world.request('east', { method: 'POST', path: 'secret/data/app', body: { data: { a: 1 } }, token: 'root' }).status).toBe(200);
    const read = { method: 'GET', path: 'secret/data/app' };
    expect(world.request('east', { ...read, token: 'ops' }).status).toBe(200);
    expect(world.request('east', { ...read, token: 'none' }).status).toBe(403);
    expect(world.request('east', { ...enable, token: 'ops' }).status).toBe(403); // a reader may not enable
    const both = createWorld({ east: { tokens: { ops: reader } }, west: { tokens: { ops: reader } }, north: {} });
    expect(() => both.request('north', { ...enable, token: 'ops' })).toThrow('token "ops" is declared on east and west but not on north');
  });

  it('serve: a client sending the name `root` as X-Vault-Token is refused, its value is accepted', async () => {
    handle = await serve({ clusters: ['east'], clock: 'manual' });
    const url = `${handle.clusters.east.url}/v1/${enable.path}`;
    expect((await fetch(url, { method: 'POST', headers: { 'X-Vault-Token': 'root' } })).status).toBe(403);
    expect((await fetch(url, { method: 'POST', headers: { 'X-Vault-Token': handle.world.tokenNamed('east', 'root')! } })).status).toBe(200);
  });
});
