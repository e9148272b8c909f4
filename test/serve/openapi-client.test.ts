// End to end over HTTP with a client generated from the service's own Enterprise OpenAPI document
// (2.1.0, as published in hashicorp/vault-client-typescript): HashiCorp's generated TypeScript client
// is not on the npm registry, so scripts/openapi-client.ts keeps the operations called here and
// openapi-typescript turns them into the types openapi-fetch checks every call against (paths,
// parameters, bodies). Like HashiCorp's generated runtime, a 2xx answer of an operation that
// declares a response schema is read as the envelope's `data`; the others as the whole envelope.
// The service answers sys/seal-status, sys/health and sys/leader bare (no envelope; HashiCorp's
// runtime reads `data` there too and so returns nothing): those are read as they come.
import { readFileSync } from 'node:fs';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import type { paths } from '../fixtures/openapi/vault-2.1.0-subset.js';
import { SUBSET, TYPES, typesOf } from '../../scripts/openapi-client.js';
import { FAILOVER_POLICY } from './failover-policy.js';

const doc = JSON.parse(readFileSync(SUBSET, 'utf8')) as { paths: Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>> };

/** HashiCorp's runtime (templates/runtime.mustache, JSONApiResponse): the typed value is `data`. */
const envelope: Middleware = {
  async onResponse({ response, schemaPath, request }) {
    const op = doc.paths[schemaPath]?.[request.method.toLowerCase()];
    if (!response.ok || !op?.responses?.['200']?.content) return response;
    const json = await response.clone().json();
    if (json === null || typeof json !== 'object' || !('data' in json)) return response;
    const text = JSON.stringify(json.data ?? null);
    const headers = new Headers(response.headers);
    headers.set('Content-Length', String(Buffer.byteLength(text)));
    return new Response(text, { status: response.status, headers });
  },
};

type Vault = Client<paths>;
function client(url: string, token?: string): Vault {
  const c = createClient<paths>({ baseUrl: `${url}/v1`, headers: token ? { 'X-Vault-Token': token } : {} });
  c.use(envelope);
  return c;
}

/** HashiCorp's runtime's `VoidResponse`: the whole envelope of an operation declaring no schema. */
interface VoidResponse {
  // null when the answer has none: a test reading one that is absent fails on it, as it should.
  auth: Record<string, any>;
  data: Record<string, any>;
  warnings: string[] | null;
  wrap_info: { token: string; ttl: number; creation_time: string; accessor: string; creation_path: string } | null;
}
type Value<T> = [T] extends [never] ? VoidResponse : [T] extends [undefined] ? VoidResponse : T;

/** The answer of a call that must succeed: its typed value (what HashiCorp's client returns). */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Value<T>> {
  const r = await call;
  if (!r.response.ok) throw new Error(`${r.response.status} ${r.response.url}: ${JSON.stringify(r.error)}`);
  return r.data as Value<T>;
}

/** The status and error texts of a call that must be refused. */
async function refused(call: Promise<{ error?: unknown; response: Response }>): Promise<{ status: number; errors: string[] }> {
  const r = await call;
  expect(r.response.ok, `${r.response.url} answered ${r.response.status}`).toBe(false);
  return { status: r.response.status, errors: (r.error as { errors?: string[] })?.errors ?? [] };
}

const POLICY = FAILOVER_POLICY;

let server: ServeHandle | undefined;
let url: Record<'east' | 'west' | 'south', string>;
let root: string;
beforeAll(async () => {
  server = await serve({ scenario: 'test/serve/fixtures/three-2x-clusters.yaml', clock: 'manual' });
  url = { east: server.clusters.east.url, west: server.clusters.west.url, south: server.clusters.south.url };
  root = server.world.state.operators.east.rootToken;
});
afterAll(async () => {
  await server?.stop();
});

async function wait(duration: string): Promise<void> {
  const r = await fetch(`${server!.control.url}/v1/step`, { method: 'POST', body: JSON.stringify({ wait: duration }), headers: { Authorization: `Bearer ${server!.control.secret}` } });
  expect(r.status, await r.text()).toBeLessThan(300);
}

describe('a client generated from the Enterprise OpenAPI document (2.1.0) against replsim serve', () => {
  it('uses types that are what openapi-typescript makes of the committed subset', async () => {
    expect(readFileSync(TYPES, 'utf8')).toBe(await typesOf(readFileSync(SUBSET, 'utf8')));
  });

  it('sets up DR and performance replication, fails over with a batch DR operation token and re-points the old primary by host:port', async () => {
    const east = client(url.east, root);
    const anon = { east: client(url.east), west: client(url.west), south: client(url.south) };

    // DR: east primary, west its secondary.
    await ok(east.POST('/sys/replication/dr/primary/enable', { body: {} }));
    const activation = await ok(east.POST('/sys/replication/dr/primary/secondary-token', { body: { id: 'west' } }));
    const drToken = activation.wrap_info!.token;
    await ok(client(url.west, server!.world.state.operators.west.rootToken).POST('/sys/replication/dr/secondary/enable', { body: { token: drToken } }));

    // Performance: east primary, south its secondary with a deny filter.
    await ok(east.POST('/sys/replication/performance/primary/enable', { body: {} }));
    const perf = await ok(east.POST('/sys/replication/performance/primary/secondary-token', { body: { id: 'south' } }));
    const perfToken = perf.wrap_info!.token;
    await ok(client(url.south, server!.world.state.operators.south.rootToken).POST('/sys/replication/performance/secondary/enable', { body: { token: perfToken } }));
    await ok(east.POST('/sys/replication/performance/primary/paths-filter/{id}', { params: { path: { id: 'south' } }, body: { mode: 'deny', paths: ['secret/'] } }));
    const filter = await ok(east.GET('/sys/replication/performance/primary/paths-filter/{id}', { params: { path: { id: 'south' } } }));
    expect(filter.data).toEqual({ mode: 'deny', paths: ['secret/'] });
    await wait('2s');

    // Status reads, as a client with no token makes them; `vault status` on the DR secondary.
    const status = await ok(anon.west.GET('/sys/replication/status'));
    expect(status.data.dr).toMatchObject({ mode: 'secondary', state: 'stream-wals' });
    const perfStatus = await ok(anon.south.GET('/sys/replication/performance/status'));
    expect(perfStatus.data.mode).toBe('secondary');
    const seal = await ok(anon.west.GET('/sys/seal-status'));
    expect(seal).toMatchObject({ sealed: false, initialized: true });
    await ok(anon.east.GET('/sys/health'));
    const leader = await ok(anon.east.GET('/sys/leader'));
    expect(leader).toMatchObject({ is_self: true, ha_enabled: expect.any(Boolean) });

    // HashiCorp's failover preparation on the primary.
    await ok(east.POST('/sys/policies/acl/{name}', { params: { path: { name: 'dr-secondary-promotion' } }, body: { policy: POLICY } }));
    const policy = await ok(east.GET('/sys/policies/acl/{name}', { params: { path: { name: 'dr-secondary-promotion' } } }));
    expect(policy).toMatchObject({ name: 'dr-secondary-promotion', policy: POLICY });
    await ok(east.POST('/auth/token/roles/{role_name}', { params: { path: { role_name: 'failover-handler' } }, body: { allowed_policies: ['dr-secondary-promotion'], orphan: true, renewable: false, token_type: 'batch' } }));
    const role = await ok(east.GET('/auth/token/roles/{role_name}', { params: { path: { role_name: 'failover-handler' } } }));
    expect(role.data).toMatchObject({ allowed_policies: ['dr-secondary-promotion'], orphan: true, renewable: false, token_type: 'batch' });
    const created = await ok(east.POST('/auth/token/create/{role_name}', { params: { path: { role_name: 'failover-handler' } }, body: { ttl: '8h' } }));
    const batch = created.auth.client_token;
    expect(batch).toMatch(/^hvb\./);
    const looked = await ok(east.POST('/auth/token/lookup', { body: { token: batch } }));
    expect(looked.data).toMatchObject({ type: 'batch', ttl: 28800, orphan: true, renewable: false });
    await wait('1s');

    // 2.x: no generation attempt on the DR secondary without a token.
    const attempt = await refused(anon.west.POST('/sys/replication/dr/secondary/generate-operation-token/attempt', { body: {} }));
    expect(attempt.status).toBe(403);

    // Failover: demote east, promote west with the batch token.
    await ok(east.POST('/sys/replication/dr/primary/demote', {}));
    await ok(anon.west.POST('/sys/replication/dr/secondary/promote', { body: { dr_operation_token: batch } }));
    expect((await ok(anon.west.GET('/sys/replication/dr/status'))).data.mode).toBe('primary');

    // Failback wiring as HashiCorp's test does it: public key on the demoted east, token from west,
    // update-primary on east with the same batch token.
    const key = (await ok(east.POST('/sys/replication/dr/secondary/generate-public-key', {}))).data.secondary_public_key;
    const westAsPrimary = client(url.west, root);
    const back = await ok(westAsPrimary.POST('/sys/replication/dr/primary/secondary-token', { body: { id: 'east', secondary_public_key: key } }));
    await ok(anon.east.POST('/sys/replication/dr/secondary/update-primary', { body: { dr_operation_token: batch, token: back.data.token } }));
    await wait('2s');
    expect((await ok(anon.east.GET('/sys/replication/dr/status'))).data).toMatchObject({ mode: 'secondary', state: 'stream-wals' });

    // The documented host:port form of update_primary_addrs.
    const readdressed = await ok(anon.east.POST('/sys/replication/dr/secondary/update-primary', { body: { dr_operation_token: batch, update_primary_addrs: ['west.replsim.test:8201'] } }));
    expect(readdressed).toBeDefined();
    await wait('2s');
    expect((await ok(anon.east.GET('/sys/replication/dr/status'))).data).toMatchObject({ mode: 'secondary', state: 'stream-wals' });

    // recover on the DR secondary (east now): the batch token's policy grants promote and
    // update-primary only, so it is no DR operation token for recover; the licence reload takes the
    // new primary's root token (2.x: a DR secondary accepts it).
    expect(await refused(anon.east.POST('/sys/replication/dr/secondary/recover', { body: { dr_operation_token: batch } }))).toEqual({ status: 400, errors: ['invalid DR operation token'] });
    await ok(client(url.east, root).POST('/sys/replication/dr/secondary/config/reload/{subsystem}', { params: { path: { subsystem: 'license' } } }));
    expect((await refused(client(url.east, root).POST('/sys/replication/dr/secondary/config/reload/{subsystem}', { params: { path: { subsystem: 'cors' } } }))).status).toBe(404);
    // On the new primary: nothing of its own to restart.
    expect((await ok(westAsPrimary.POST('/sys/replication/recover', {}))).warnings?.[0]).toContain('nothing to restart');
    await wait('2s');

    const result = await server!.stop();
    server = undefined;
    expect(result.findings.filter((f) => f.kind === "violation").map((f) => JSON.stringify(f))).toEqual([]);
  });
});

describe('the rest of the surface through the same client', () => {
  let s: ServeHandle | undefined;
  afterAll(async () => {
    await s?.stop();
  });

  it('sync settings, a GitHub App, an in-mem destination, and token renew/revoke with the batch-token rules', async () => {
    s = await serve({ scenario: 'test/serve/fixtures/three-2x-clusters.yaml', clock: 'manual' });
    const token = s.world.state.operators.east.rootToken;
    const east = client(s.clusters.east.url, token);

    // sys/sync/config: the defaults, a patch, the defaults again.
    expect(await ok(east.GET('/sys/sync/config'))).toEqual({ disabled: false, queue_capacity: 1000000 });
    expect(await ok(east.PATCH('/sys/sync/config', { body: { disabled: true, queue_capacity: 10 } }))).toEqual({ disabled: true, queue_capacity: 10 });
    expect(await ok(east.DELETE('/sys/sync/config'))).toEqual({ disabled: false, queue_capacity: 1000000 });

    // A GitHub App: written, listed, read, deleted.
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    expect(await ok(east.POST('/sys/sync/github-apps/{name}', { params: { path: { name: 'ci' } }, body: { app_id: 42, private_key: pem } }))).toMatchObject({ app_id: 42, name: 'ci' });
    expect(await ok(east.GET('/sys/sync/github-apps/', { params: { query: { list: 'true' } } }))).toEqual({ keys: ['ci'] });
    expect(await ok(east.GET('/sys/sync/github-apps/{name}', { params: { path: { name: 'ci' } } }))).toMatchObject({ app_id: 42, name: 'ci' });
    expect(await ok(east.DELETE('/sys/sync/github-apps/{name}', { params: { path: { name: 'ci' } } }))).toEqual({ app_id: 42, name: 'ci' });

    // The in-mem destination type.
    expect(await ok(east.POST('/sys/sync/destinations/in-mem/{name}', { params: { path: { name: 'mem' } }, body: { granularity: 'secret-path' } }))).toMatchObject({ name: 'mem', type: 'in-mem' });
    expect(await ok(east.PATCH('/sys/sync/destinations/in-mem/{name}', { params: { path: { name: 'mem' } }, body: { secret_name_template: 'app/{{ .SecretPath }}' } }))).toMatchObject({ options: { secret_name_template: 'app/{{ .SecretPath }}' } });
    expect(await ok(east.GET('/sys/sync/destinations/in-mem/{name}', { params: { path: { name: 'mem' } } }))).toMatchObject({ name: 'mem' });
    await ok(east.DELETE('/sys/sync/destinations/in-mem/{name}', { params: { path: { name: 'mem' } } }));

    // Tokens: a service token renewed and revoked; a batch token neither, in the service's words.
    const service = (await ok(east.POST('/auth/token/create', { body: { ttl: '1h', policies: ['default'] } }))).auth.client_token as string;
    expect((await ok(east.POST('/auth/token/renew', { body: { token: service, increment: '2h' } }))).auth.lease_duration).toBe(7200);
    expect((await ok(client(s.clusters.east.url, service).POST('/auth/token/renew-self', { body: {} }))).auth.client_token).toBe(service);
    const batch = (await ok(east.POST('/auth/token/create', { body: { type: 'batch', ttl: '1h', policies: ['default'] } }))).auth.client_token as string;
    expect(await refused(east.POST('/auth/token/renew', { body: { token: batch } }))).toEqual({ status: 400, errors: ['batch tokens cannot be renewed'] });
    expect(await refused(east.POST('/auth/token/revoke', { body: { token: batch } }))).toEqual({ status: 400, errors: ['batch tokens cannot be revoked'] });
    expect(await refused(client(s.clusters.east.url, batch).POST('/auth/token/revoke-self', {}))).toEqual({ status: 400, errors: ['batch tokens cannot be revoked'] });
    const accessor = (await ok(east.POST('/auth/token/create', { body: { policies: ['default'] } }))).auth.accessor as string;
    await ok(east.POST('/auth/token/revoke-accessor', { body: { accessor } }));
    await ok(client(s.clusters.east.url, service).POST('/auth/token/revoke-self', {}));
    expect((await refused(east.POST('/auth/token/lookup', { body: { token: service } }))).status).toBe(403);

    const result = await s.stop();
    s = undefined;
    expect(result.findings.filter((f) => f.kind === "violation").map((f) => JSON.stringify(f))).toEqual([]);
  });
});
