// HashiCorp's own DR failover and failback, with a batch DR operation token prepared on the
// primary (the service's end-to-end replication modules), through world.request as an operator
// would send it: policy, role, token, promote on the DR secondary, demote, then update-primary on
// the demoted former primary with the same token.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import { Watch } from '../../../src/check/catalogue.js';
import { AREAS } from '../../../src/areas.js';

const DR = 'sys/replication/dr';
const POLICY = `path "sys/replication/dr/secondary/promote" {
  capabilities = [ "update" ]
}
path "sys/replication/dr/secondary/update-primary" {
  capabilities = [ "update" ]
}`;

function ok(r: ApiResponse): any {
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}

function drPair(version = '1.16.0') {
  const w = World.create({ east: { version }, west: { version } }, { seed: 5 });
  const watch = new Watch(w, AREAS.flatMap((a) => a.monitors ?? []));
  const send = (cluster: string, method: string, path: string, body?: unknown, token?: string) => {
    const r = watch.send(cluster, { method, path, body, token }).response;
    watch.afterStep();
    return r;
  };
  const root = w.state.operators.east.rootToken;
  ok(send('east', 'POST', `${DR}/primary/enable`, {}, root));
  const t = ok(send('east', 'POST', `${DR}/primary/secondary-token`, { id: 'west' }, root)).wrap_info.token;
  ok(send('west', 'POST', `${DR}/secondary/enable`, { token: t }, w.state.operators.west.rootToken));
  w.advance(2000);
  watch.afterStep();
  return { w, watch, send, root };
}

function prepareBatchToken(x: ReturnType<typeof drPair>, ttl = '8h', seconds = 8 * 3600): string {
  const { send, root } = x;
  expect(send('east', 'PUT', 'sys/policies/acl/dr-secondary-promotion', { policy: POLICY }, root).status).toBe(204);
  expect(send('east', 'POST', 'auth/token/roles/failover-handler', { allowed_policies: ['dr-secondary-promotion'], orphan: true, renewable: false, token_type: 'batch' }, root).status).toBe(204);
  const created = ok(send('east', 'POST', 'auth/token/create/failover-handler', { ttl }, root));
  expect(created.auth).toMatchObject({ token_type: 'batch', orphan: true, renewable: false, accessor: '', lease_duration: seconds, policies: ['default', 'dr-secondary-promotion'] });
  expect(created.auth.client_token).toMatch(/^hvb\./);
  return created.auth.client_token;
}

describe('a batch DR operation token', () => {
  it('promotes the DR secondary and re-points the demoted former primary, as HashiCorp’s failover test does', () => {
    const x = drPair();
    const batch = prepareBatchToken(x);
    x.w.advance(1000);
    // The DR secondary holds the primary's keyring, so it can open the token; nothing was replicated for it.
    ok(x.send('west', 'POST', `${DR}/secondary/promote`, { dr_operation_token: batch }));
    ok(x.send('east', 'POST', `${DR}/primary/demote`, {}, x.root));
    const pub = ok(x.send('east', 'POST', `${DR}/secondary/generate-public-key`, {}, x.root)).data.secondary_public_key;
    const token = ok(x.send('west', 'POST', `${DR}/primary/secondary-token`, { id: 'east', secondary_public_key: pub }, x.root)).data.token;
    // The same batch token, again, on the demoted former primary.
    ok(x.send('east', 'POST', `${DR}/secondary/update-primary`, { dr_operation_token: batch, token }));
    x.w.advance(2000);
    x.watch.afterStep();
    expect(x.w.state.clusters.named('west').replication.dr.role).toBe('primary');
    expect(x.w.state.clusters.named('east').replication.dr.primary).toBe('west');
    expect(x.watch.findings.filter((f) => f.kind === 'violation')).toEqual([]);
  });

  it('is refused without the policy, once expired, and under another keyring', () => {
    const x = drPair();
    const batch = prepareBatchToken(x, '1h', 3600);
    // A batch token whose policies do not grant update on the path is not a DR operation token.
    const other = ok(x.send('east', 'POST', 'auth/token/create', { type: 'batch', policies: ['default'] }, x.root)).auth.client_token;
    const hash = x.w.stateHash();
    expect(x.send('west', 'POST', `${DR}/secondary/promote`, { dr_operation_token: other }).status).toBe(400);
    expect(x.w.stateHash()).toBe(hash);
    // A cluster with its own keyring cannot open it.
    const lone = World.create({ south: {} }, { seed: 9 });
    expect(lone.request('south', { method: 'GET', path: 'auth/token/lookup-self', token: batch }).status).toBe(403);
    x.w.advance(3_600_000);
    expect(x.send('west', 'POST', `${DR}/secondary/promote`, { dr_operation_token: batch }).status).toBe(400);
    expect(x.w.state.clusters.named('west').replication.dr.role).not.toBe('primary');
  });

  it('cannot be renewed, made periodic or made root, and a lookup reports it as the service does', () => {
    const x = drPair();
    const batch = prepareBatchToken(x);
    const seen = ok(x.send('east', 'POST', 'auth/token/lookup', { token: batch }, x.root)).data;
    expect(seen).toMatchObject({ type: 'batch', orphan: true, renewable: false, accessor: '', ttl: 8 * 3600, policies: ['default', 'dr-secondary-promotion'], path: 'auth/token/create/failover-handler' });
    expect(x.send('east', 'POST', 'auth/token/create', { type: 'batch', period: '1h' }, x.root).status).toBe(400);
    expect(x.send('east', 'POST', 'auth/token/create', { type: 'batch', policies: ['root'] }, x.root).status).toBe(400);
    expect(x.send('east', 'POST', 'auth/token/create', {}, batch).status).toBe(403);
  });
});
