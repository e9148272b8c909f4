// End to end over HTTP with the node-vault client: HashiCorp's batch DR operation token flow on
// 2.x clusters served by `replsim serve` (in-process, free ports), as its own failover test runs it:
// policy, token role and batch token prepared on the primary; no-token generation refused on the DR
// secondary; promote with the batch token; the demoted primary re-pointed with it; then the
// operator surface around it (policies that gate, sys/mounts, sys/leader, token lookup).
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { FAILOVER_POLICY } from './failover-policy.js';

const require = createRequire(import.meta.url);
const vault = require('node-vault') as (o: { endpoint: string; token?: string }) => any;

const POLICY = FAILOVER_POLICY;

let server: ServeHandle | undefined;
afterAll(async () => {
  await server?.stop();
});

async function control(url: string, step: unknown): Promise<void> {
  const r = await fetch(`${url}/v1/step`, { method: 'POST', body: JSON.stringify(step), headers: { Authorization: `Bearer ${server!.control.secret}` } });
  expect(r.status, await r.text()).toBeLessThan(300);
}

describe('node-vault against replsim serve, 2.x', () => {
  it('prepares a batch DR operation token on the primary and fails over and back with it', async () => {
    // Both clusters on 2.1: a served world takes its versions from the scenario it serves.
    server = await serve({ scenario: 'test/serve/fixtures/two-2x-clusters.yaml', clock: 'manual' });
    const urls = { east: server.clusters.east.url, west: server.clusters.west.url };
    const ctl = server.control.url;
    const rootEast = server.world.state.operators.east.rootToken;
    const east = vault({ endpoint: urls.east, token: rootEast });
    const west = vault({ endpoint: urls.west, token: server.world.state.operators.west.rootToken });

    await east.write('sys/replication/dr/primary/enable', {});
    const activation = (await east.write('sys/replication/dr/primary/secondary-token', { id: 'west' })).wrap_info.token;
    await west.write('sys/replication/dr/secondary/enable', { token: activation });
    await control(ctl, { wait: '2s' });

    // vault status on the DR secondary: read, and no finding.
    expect((await vault({ endpoint: urls.west }).status()).sealed).toBe(false);

    // The preparation, through node-vault's own helpers where it has them.
    await east.addPolicy({ name: 'dr-secondary-promotion', rules: POLICY });
    expect((await east.getPolicy({ name: 'dr-secondary-promotion' })).data.rules).toBe(POLICY);
    await east.write('auth/token/roles/failover-handler', { allowed_policies: ['dr-secondary-promotion'], orphan: true, renewable: false, token_type: 'batch' });
    const created = await east.write('auth/token/create/failover-handler', { ttl: '8h' });
    const batch: string = created.auth.client_token;
    expect(batch).toMatch(/^hvb\./);
    expect(created.auth).toMatchObject({ token_type: 'batch', orphan: true, renewable: false });
    expect((await east.tokenLookup({ token: batch })).data).toMatchObject({ type: 'batch', ttl: 28800 });
    await control(ctl, { wait: '1s' });

    // 2.x: a generation attempt without a token is refused 403.
    await expect(vault({ endpoint: urls.west }).write('sys/replication/dr/secondary/generate-operation-token/attempt', {})).rejects.toMatchObject({ response: { statusCode: 403 } });

    // Failover: demote east, promote west with the batch token, re-point east with it.
    await east.write('sys/replication/dr/primary/demote', {});
    await vault({ endpoint: urls.west }).write('sys/replication/dr/secondary/promote', { dr_operation_token: batch });
    const key = (await east.write('sys/replication/dr/secondary/generate-public-key', {})).data.secondary_public_key;
    const promoted = vault({ endpoint: urls.west, token: rootEast });
    const token = (await promoted.write('sys/replication/dr/primary/secondary-token', { id: 'east', secondary_public_key: key })).data.token;
    await vault({ endpoint: urls.east }).write('sys/replication/dr/secondary/update-primary', { dr_operation_token: batch, token });
    await control(ctl, { wait: '2s' });
    expect((await vault({ endpoint: urls.east }).read('sys/replication/dr/status')).data).toMatchObject({ mode: 'secondary', state: 'stream-wals' });

    // The operator surface on the new primary: leader, a KV engine enabled, a policy that gates.
    expect(await vault({ endpoint: urls.west }).request({ path: '/sys/leader', method: 'GET' })).toMatchObject({ is_self: true });
    await promoted.mount({ mount_point: 'payments', type: 'kv', options: { version: '2' } });
    await promoted.write('payments/data/card', { data: { n: 1 } });
    await promoted.addPolicy({ name: 'payments-read', rules: 'path "payments/data/*" { capabilities = ["read"] }' });
    const reader = (await promoted.tokenCreate({ policies: ['payments-read'], ttl: '1h' })).auth.client_token;
    expect((await vault({ endpoint: urls.west, token: reader }).read('payments/data/card')).data.data).toEqual({ n: 1 });
    await expect(vault({ endpoint: urls.west, token: reader }).write('payments/data/card', { data: { n: 2 } })).rejects.toMatchObject({ response: { statusCode: 403 } });

    const result = await server.stop();
    server = undefined;
    expect(result.findings.filter((f) => f.kind === 'violation')).toEqual([]);
  });
});
