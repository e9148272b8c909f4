// Named ACL policies really gate: capabilities on path globs, `+` segments, sudo, deny, several
// policies merged, and a policy that cannot be read refused with the line that is wrong.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';

function world(version = '1.16.0') {
  const w = World.create({ east: { version, mounts: { secret: 'kv-v2', team: 'kv-v2' } } }, { seed: 2 });
  const root = w.state.operators.east.rootToken;
  const req = (method: string, path: string, body?: unknown, token = root) => w.request('east', { method, path, body, token });
  const tokenWith = (...policies: string[]) => (req('POST', 'auth/token/create', { policies }).body as any).auth.client_token as string;
  return { w, req, tokenWith };
}

describe('ACL policies', () => {
  it('grant what their rules say on globs and + segments, deny wins, and policies add up', () => {
    const { req, tokenWith } = world();
    expect(req('PUT', 'sys/policies/acl/reader', { policy: 'path "secret/data/*" { capabilities = ["read"] }\npath "secret/data/apps/+/db" { capabilities = ["create", "update"] }' }).status).toBe(204);
    expect(req('PUT', 'sys/policies/acl/no-admin', { policy: '{"path": {"secret/data/admin": {"capabilities": ["deny"]}}}' }).status).toBe(204);
    expect(req('POST', 'secret/data/admin', { data: { k: 1 } }).status).toBe(200);
    expect(req('POST', 'secret/data/app', { data: { k: 1 } }).status).toBe(200);
    const t = tokenWith('reader', 'no-admin');
    expect(req('GET', 'secret/data/app', undefined, t).status).toBe(200);
    expect(req('POST', 'secret/data/app', { data: { k: 2 } }, t).status).toBe(403);
    expect(req('POST', 'secret/data/apps/pay/db', { data: { k: 2 } }, t).status).toBe(200);
    expect(req('POST', 'secret/data/apps/pay/other', { data: { k: 2 } }, t).status).toBe(403);
    expect(req('GET', 'secret/data/admin', undefined, t).status).toBe(403);
    expect(req('GET', 'team/data/x', undefined, t).status).toBe(403);
    // The built-in default policy lets every token look itself up.
    expect((req('GET', 'auth/token/lookup-self', undefined, t).body as any).data.policies).toEqual(['default', 'no-admin', 'reader']);
    // A policy changed is in force at once for the tokens that name it.
    expect(req('PUT', 'sys/policies/acl/reader', { policy: 'path "team/*" { capabilities = ["read"] }' }).status).toBe(204);
    expect(req('GET', 'secret/data/app', undefined, t).status).toBe(403);
    // Deleted: it grants nothing.
    expect(req('DELETE', 'sys/policies/acl/reader').status).toBe(204);
    expect(req('GET', 'sys/policies/acl/reader').status).toBe(404);
  });

  it('needs sudo where the endpoint does (a secondary token), and a child gets at most its parent’s policies', () => {
    const { req, tokenWith } = world();
    req('PUT', 'sys/policies/acl/dr-admin', { policy: 'path "sys/replication/dr/*" { capabilities = ["create", "update"] }' });
    req('PUT', 'sys/policies/acl/dr-sudo', { policy: 'path "sys/replication/dr/*" { capabilities = ["update", "sudo"] }\npath "auth/token/create" { capabilities = ["update"] }' });
    expect(req('POST', 'sys/replication/dr/primary/enable').status).toBeLessThan(300);
    const plain = tokenWith('dr-admin');
    expect(req('POST', 'sys/replication/dr/primary/secondary-token', { id: 'w' }, plain).status).toBe(403);
    const sudo = tokenWith('dr-sudo');
    expect(req('POST', 'sys/replication/dr/primary/secondary-token', { id: 'w' }, sudo).status).toBe(200);
    expect(req('POST', 'auth/token/create', { policies: ['dr-admin'] }, sudo).body).toEqual({ errors: ['child policies must be subset of parent'] });
    expect(req('POST', 'auth/token/create', { policies: ['dr-sudo'] }, sudo).status).toBe(200);
  });

  it('refuses what cannot be read, naming the line, and changes nothing', () => {
    const { w, req } = world();
    const hash = w.stateHash();
    expect(req('PUT', 'sys/policies/acl/bad', { policy: 'path "a" {\n  capabilities = ["reed"]\n}' }).body).toEqual({ errors: ['failed to parse policy: line 2: invalid capability "reed"'] });
    expect(req('PUT', 'sys/policies/acl/bad', { policy: 'path "a" {\n  capabilities = ["read"]\n' }).status).toBe(400);
    expect(req('PUT', 'sys/policies/acl/bad', {}).body).toEqual({ errors: ["'policy' parameter not supplied or empty"] });
    expect(req('PUT', 'sys/policies/acl/root', { policy: 'path "a" { capabilities = ["read"] }' }).status).toBe(400);
    expect(req('DELETE', 'sys/policies/acl/default').status).toBe(400);
    expect(w.stateHash()).toBe(hash);
  });

  it('from 2.1.0 refuse an attribute given twice in one block', () => {
    const twice = 'path "a" {\n  capabilities = ["read"]\n  capabilities = ["list"]\n}';
    expect(world('2.0.0').req('PUT', 'sys/policies/acl/p', { policy: twice }).status).toBe(204);
    expect(world('2.1.0').req('PUT', 'sys/policies/acl/p', { policy: twice }).body).toEqual({ errors: ['failed to parse policy: line 3: the argument "capabilities" was already set'] });
  });
});
