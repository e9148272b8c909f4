// ACL policies outside the root namespace: written, listed, read and deleted in the namespace of the
// request; a token's policy names resolve in its own namespace, so a root policy of the same name
// grants a namespace's token nothing, and the other way round.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import type { ApiResponse } from '../../../src/kernel/http/http.js';

function world() {
  const w = World.create({ east: { namespaces: ['team-a'], mounts: { secret: 'kv-v2', 'team-a/apps': 'kv-v2' } } }, { seed: 4 });
  const root = w.state.operators.east.rootToken;
  const req = (method: string, path: string, body?: unknown, token: string = root, namespace?: string): ApiResponse => w.request('east', { method, path, body, token, namespace });
  const ok = (r: ApiResponse): any => {
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  return { w, root, req, ok };
}

describe('policies in a namespace', () => {
  it('are kept apart from the root namespace\'s, and gate the namespace\'s tokens', () => {
    const { w, req, ok } = world();
    ok(req('POST', 'sys/policies/acl/apps-read', { policy: 'path "apps/data/*" { capabilities = ["read"] }' }, undefined, 'team-a/'));
    ok(req('POST', 'sys/policies/acl/apps-read', { policy: 'path "secret/data/*" { capabilities = ["read"] }' }));
    expect(ok(req('GET', 'sys/policies/acl/apps-read', undefined, undefined, 'team-a/')).data.policy).toContain('apps/data/*');
    expect(ok(req('GET', 'sys/policies/acl/apps-read')).data.policy).toContain('secret/data/*');
    expect(ok(req('LIST', 'sys/policies/acl', undefined, undefined, 'team-a/')).data.keys).toEqual(['apps-read', 'default', 'root']);
    expect(w.log.at(-1)).toMatchObject({ type: 'acl-policy-written' });

    ok(req('POST', 'apps/data/card', { data: { n: 1 } }, undefined, 'team-a/'));
    ok(req('POST', 'secret/data/card', { data: { n: 2 } }));
    const inTeam = ok(req('POST', 'auth/token/create', { policies: ['apps-read'] }, undefined, 'team-a/')).auth.client_token;
    const atRoot = ok(req('POST', 'auth/token/create', { policies: ['apps-read'] })).auth.client_token;
    // The namespace's token reads the namespace's mount by the namespace's policy, nothing at the root.
    expect(req('GET', 'apps/data/card', undefined, inTeam, 'team-a/').status).toBe(200);
    expect(req('GET', 'secret/data/card', undefined, inTeam).status).toBe(403);
    // The root token of the same policy name has the root's rules.
    expect(req('GET', 'secret/data/card', undefined, atRoot).status).toBe(200);
    expect(req('GET', 'apps/data/card', undefined, atRoot, 'team-a/').status).toBe(403);

    ok(req('DELETE', 'sys/policies/acl/apps-read', undefined, undefined, 'team-a/'));
    expect(req('GET', 'apps/data/card', undefined, inTeam, 'team-a/').status).toBe(403);
    expect(req('GET', 'secret/data/card', undefined, atRoot).status).toBe(200);
    expect(World.replay(JSON.parse(JSON.stringify(w.log))).stateHash()).toBe(w.stateHash());
  });

  it('needs a namespace that exists', () => {
    const { req } = world();
    expect(req('POST', 'sys/policies/acl/p', { policy: 'path "x" { capabilities = ["read"] }' }, undefined, 'nope/').status).toBeGreaterThanOrEqual(400);
  });
});
