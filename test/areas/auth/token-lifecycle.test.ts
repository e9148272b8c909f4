// auth/token/renew, renew-self, revoke, revoke-self, revoke-orphan, revoke-accessor and
// lookup-accessor: service tokens renewed and revoked (down the tree), batch tokens neither, with
// the service's texts; each refusal changes nothing.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import type { ApiResponse } from '../../../src/kernel/http/http.js';

function world() {
  const w = World.create({ east: {} }, { seed: 3 });
  const root = w.state.operators.east.rootToken;
  const send = (path: string, body: unknown = {}, token: string | undefined = root): ApiResponse => w.request('east', { method: 'POST', path, body, token });
  const ok = (r: ApiResponse): any => {
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const create = (body: Record<string, unknown>, token = root) => ok(send('auth/token/create', body, token)).auth as { client_token: string; accessor: string };
  const lookup = (token: string) => w.request('east', { method: 'POST', path: 'auth/token/lookup', body: { token }, token: root });
  return { w, root, send, ok, create, lookup };
}

describe('renew', () => {
  it('extends a service token by its TTL from now, or by the increment, within its explicit max TTL', () => {
    const { w, send, ok, create, lookup } = world();
    const t = create({ ttl: '1h', explicit_max_ttl: '3h', policies: ['default'] });
    w.advance(30 * 60_000);
    expect((lookup(t.client_token).body as any).data.ttl).toBe(1800);
    expect(ok(send('auth/token/renew', { token: t.client_token })).auth).toMatchObject({ client_token: t.client_token, lease_duration: 3600, renewable: true, token_type: 'service' });
    expect((lookup(t.client_token).body as any).data.ttl).toBe(3600);
    // renew-self with an increment past the explicit max TTL stops at it (3 h from creation).
    expect(ok(send('auth/token/renew-self', { increment: '10h' }, t.client_token)).auth.lease_duration).toBe(9000);
  });

  it('refuses a batch token ("batch tokens cannot be renewed"), a non-renewable one, a root token and an unknown one', () => {
    const { w, send, create } = world();
    const batch = create({ type: 'batch', ttl: '1h', policies: ['default'] }).client_token;
    const fixed = create({ ttl: '1h', renewable: false, policies: ['default'] }).client_token;
    const before = w.log.length;
    expect(send('auth/token/renew', { token: batch }).body).toEqual({ errors: ['batch tokens cannot be renewed'] });
    expect(send('auth/token/renew-self', {}, batch).status).toBe(400);
    expect(send('auth/token/renew', { token: fixed }).body).toEqual({ errors: ['lease is not renewable'] });
    expect(send('auth/token/renew-self').status).toBe(400);
    expect(send('auth/token/renew', { token: 'hvs.nosuch' }).body).toEqual({ errors: ['token not found'] });
    expect(send('auth/token/renew', {}).body).toEqual({ errors: ['missing token ID'] });
    expect(w.log.length).toBe(before);
  });
});

describe('revoke', () => {
  it('revokes a token and every token it created; revoke-orphan leaves the children, as orphans', () => {
    const { send, ok, create, lookup } = world();
    ok(send('sys/policies/acl/creator', { policy: 'path "auth/token/create" { capabilities = ["update"] }' }));
    const parent = create({ policies: ['creator'] }).client_token;
    const child = create({ policies: ['creator'] }, parent).client_token;
    const grandchild = create({ policies: ['creator'] }, child).client_token;
    expect(send('auth/token/revoke', { token: parent }).status).toBe(204);
    for (const t of [parent, child, grandchild]) expect(lookup(t).status).toBe(403);

    const p2 = create({ policies: ['creator'] }).client_token;
    const c2 = create({ policies: ['creator'] }, p2).client_token;
    expect(send('auth/token/revoke-orphan', { token: p2 }).status).toBe(204);
    expect(lookup(p2).status).toBe(403);
    expect(ok(lookup(c2)).data.orphan).toBe(true);
    // A token that is not there is revoked already.
    expect(send('auth/token/revoke', { token: 'hvs.nosuch' }).status).toBe(204);
  });

  it('revoke-self and revoke-accessor; lookup-accessor shows the token without its value', () => {
    const { send, ok, create, lookup } = world();
    const a = create({ policies: ['default'] });
    expect(ok(send('auth/token/lookup-accessor', { accessor: a.accessor })).data).toMatchObject({ accessor: a.accessor, id: '' });
    expect(send('auth/token/revoke-accessor', { accessor: a.accessor }).status).toBe(204);
    expect(lookup(a.client_token).status).toBe(403);
    expect(send('auth/token/revoke-accessor', { accessor: a.accessor }).body).toEqual({ errors: ['invalid accessor'] });
    expect(send('auth/token/lookup-accessor', {}).body).toEqual({ errors: ['missing accessor'] });
    const b = create({ policies: ['default'] }).client_token;
    expect(send('auth/token/revoke-self', {}, b).status).toBe(204);
    expect(lookup(b).status).toBe(403);
  });

  it('refuses a batch token by every path ("batch tokens cannot be revoked"), changing nothing', () => {
    const { w, send, ok, create, lookup } = world();
    const batch = create({ type: 'batch', ttl: '1h', policies: ['default'] }).client_token;
    const before = w.log.length;
    expect(send('auth/token/revoke', { token: batch }).body).toEqual({ errors: ['batch tokens cannot be revoked'] });
    expect(send('auth/token/revoke-self', {}, batch).body).toEqual({ errors: ['batch tokens cannot be revoked'] });
    expect(send('auth/token/revoke-orphan', { token: batch }).status).toBe(400);
    expect(w.log.length).toBe(before);
    expect(ok(lookup(batch)).data.type).toBe('batch');
  });

  it('needs the capability on the path (revoke-orphan also sudo)', () => {
    const { send, create } = world();
    const plain = create({ policies: ['default'] }).client_token;
    const other = create({ policies: ['default'] }).client_token;
    expect(send('auth/token/revoke', { token: other }, plain).status).toBe(403);
    expect(send('auth/token/revoke-orphan', { token: other }, plain).status).toBe(403);
  });
});

describe('replay', () => {
  it('rebuilds the same token store from a log of renewals and revocations', () => {
    const { w, send, create } = world();
    const a = create({ ttl: '1h', policies: ['default'] }).client_token;
    const b = create({ policies: ['default'] }).client_token;
    w.advance(60_000);
    send('auth/token/renew', { token: a });
    send('auth/token/revoke-orphan', { token: b });
    expect(World.replay(JSON.parse(JSON.stringify(w.log))).stateHash()).toBe(w.stateHash());
  });
});
