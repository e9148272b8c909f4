// sys/sync/config (disabled, queue_capacity), sys/sync/github-apps and the in-mem destination type,
// through the API as an operator drives them: each success and each refusal.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SYNC_DELAY_MS } from '../../../src/areas/sync/sync.js';
import { DEST, accessorOf, call, createDestination, dataOf, expectOk, expectRefused, removeAssociation, setAssociation, statusOf, storeOf, syncWorld, writeSecret } from './helpers.js';

const PEM = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;

describe('sys/sync/config', () => {
  it('reads the defaults until patched, and DELETE gives them back', () => {
    const w = syncWorld();
    expect(dataOf(expectOk(call(w, 'GET', 'sys/sync/config')))).toEqual({ disabled: false, queue_capacity: 1_000_000 });
    expect(dataOf(expectOk(call(w, 'PATCH', 'sys/sync/config', { queue_capacity: 5 })))).toEqual({ disabled: false, queue_capacity: 5 });
    // The docs' sample payload sends the flag as a string.
    expect(dataOf(expectOk(call(w, 'PATCH', 'sys/sync/config', { disabled: 'true' })))).toEqual({ disabled: true, queue_capacity: 5 });
    expect(dataOf(expectOk(call(w, 'GET', 'sys/sync/config')))).toEqual({ disabled: true, queue_capacity: 5 });
    expect(dataOf(expectOk(call(w, 'DELETE', 'sys/sync/config')))).toEqual({ disabled: false, queue_capacity: 1_000_000 });
    expect(w.state.clusters.named('east').sync.config).toBeUndefined();
  });

  it('while disabled, operations stay PENDING; enabled again, they run', () => {
    const w = syncWorld();
    writeSecret(w, 'app/web', { K: 'v' });
    createDestination(w, 'codehost', 'gh1');
    expectOk(call(w, 'PATCH', 'sys/sync/config', { disabled: true }));
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(60_000);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    expectOk(call(w, 'PATCH', 'sys/sync/config', { disabled: false }));
    w.advance(0);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toEqual([`VAULT_${accessorOf(w).toUpperCase()}_APP_WEB_K`]);
  });

  it('refuses an operation beyond queue_capacity, and a capacity that is not positive', () => {
    const w = syncWorld();
    writeSecret(w, 'a', { K: '1' });
    writeSecret(w, 'b', { K: '2' });
    createDestination(w, 'codehost', 'gh1');
    expectRefused(call(w, 'PATCH', 'sys/sync/config', { queue_capacity: 0 }), 400, 'queue_capacity must be a positive number');
    expectOk(call(w, 'PATCH', 'sys/sync/config', { queue_capacity: 1, disabled: true }));
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'a'));
    // Setting it again replaces the queued operation: no new place taken.
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'a'));
    const before = w.log.length;
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'secret', 'b'), 400, 'the sync queue is full');
    expect(w.log.length).toBe(before);
    expectOk(call(w, 'PATCH', 'sys/sync/config', { disabled: false }));
    w.advance(SYNC_DELAY_MS);
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'b'));
    expectRefused(removeAssociation(w, 'codehost', 'gh1', 'secret', 'a'), 400, 'the sync queue is full');
  });

  it('is restricted to the root namespace and needs the capability', () => {
    const w = syncWorld();
    expect(call(w, 'GET', 'sys/sync/config', undefined, 'root', 'east', 'team-a/').status).toBe(400);
    expectRefused(call(w, 'PATCH', 'sys/sync/config', { disabled: true }, 'viewer'), 403, 'permission denied');
  });
});

describe('sys/sync/github-apps', () => {
  it('registers, lists, reads (the key obfuscated, its fingerprint shown) and deletes an app', () => {
    const w = syncWorld();
    expect(call(w, 'LIST', 'sys/sync/github-apps').status).toBe(404);
    const written = dataOf(expectOk(call(w, 'POST', 'sys/sync/github-apps/ci', { app_id: 12345, private_key: PEM })));
    expect(written).toMatchObject({ name: 'ci', app_id: 12345, private_key: '*****' });
    expect(written.fingerprint).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(dataOf(expectOk(call(w, 'GET', 'sys/sync/github-apps?list=true'))).keys).toEqual(['ci']);
    expect(dataOf(expectOk(call(w, 'GET', 'sys/sync/github-apps/ci')))).toEqual(written);
    expect(dataOf(expectOk(call(w, 'DELETE', 'sys/sync/github-apps/ci')))).toEqual({ app_id: 12345, name: 'ci' });
    expect(call(w, 'GET', 'sys/sync/github-apps/ci').status).toBe(404);
    expect(call(w, 'DELETE', 'sys/sync/github-apps/ci').status).toBe(204);
  });

  it('refuses a registration without app_id, without a key or with a key that is not PEM, changing nothing', () => {
    const w = syncWorld();
    const before = w.log.length;
    expectRefused(call(w, 'POST', 'sys/sync/github-apps/ci', { private_key: PEM }), 400, 'missing required field "app_id"');
    expectRefused(call(w, 'POST', 'sys/sync/github-apps/ci', { app_id: 1 }), 400, 'missing required field "private_key"');
    expectRefused(call(w, 'POST', 'sys/sync/github-apps/ci', { app_id: 1, private_key: 'not a key' }), 400, 'not a PEM-encoded private key');
    expect(w.log.length).toBe(before);
  });

  it('keeps an app a code host destination authenticates as until the destination names another', () => {
    const w = syncWorld();
    expectOk(call(w, 'POST', 'sys/sync/github-apps/ci', { app_id: 7, private_key: PEM }));
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { app_name: 'ci', installation_id: 99, repository_owner: 'acme', repository_name: 'web' }));
    expectRefused(call(w, 'DELETE', 'sys/sync/github-apps/ci'), 400, 'used by the destination codehost/gh1');
    expectOk(call(w, 'PATCH', `${DEST}/codehost/gh1`, { access_token: 'tok', app_name: '' }));
    expectOk(call(w, 'DELETE', 'sys/sync/github-apps/ci'));
  });
});

describe('the in-mem destination type', () => {
  it('is created with no connection parameters, listed with the others and synced to', () => {
    const w = syncWorld();
    writeSecret(w, 'app/web', { K: 'v' });
    const created = dataOf(expectOk(call(w, 'POST', `${DEST}/in-mem/mem1`, {})));
    expect(created).toMatchObject({ name: 'mem1', type: 'in-mem', connection_details: {}, options: { granularity_level: 'secret-path' } });
    expect(dataOf(expectOk(call(w, 'LIST', `${DEST}/in-mem`))).keys).toEqual(['mem1']);
    expectOk(setAssociation(w, 'in-mem', 'mem1', 'secret', 'app/web'));
    w.advance(SYNC_DELAY_MS);
    expect(statusOf(w, 'in-mem', 'mem1', 'secret', 'app/web')).toBe('SYNCED');
    expect(storeOf(w, 'in-mem', 'mem1')).toEqual({ [`vault/${accessorOf(w)}/app/web`]: '{"K":"v"}' });
    expectOk(call(w, 'PATCH', `${DEST}/in-mem/mem1`, { granularity: 'secret-key', secret_name_template: '{{ .SecretPath }}_{{ .SecretKey }}' }));
    expectRefused(call(w, 'DELETE', `${DEST}/in-mem/mem1`), 400, 'still manages 1 association');
  });
});

describe('destination parameters by the cluster\'s version', () => {
  const body = { ...{ access_key_id: 'A', secret_access_key: 'S', region: 'r' }, force_delete: true, identity_token_audience: 'aud', kms_key_id: 'k1', role_arn: 'arn:r' };

  it('1.x ignores the 2.0 and 2.1 parameters with the service\'s warning and stores none of them', () => {
    const w = syncWorld({ east: { version: '1.17.0' } });
    const r = expectOk(call(w, 'POST', `${DEST}/cloudone-sm/s1`, body));
    expect((r.body as any).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [force_delete identity_token_audience kms_key_id]']);
    expect(w.state.clusters.named('east').sync.destinations['cloudone-sm/s1'].settings).toEqual({ role_arn: 'arn:r' });
  });

  it('2.0 takes force_delete and workload identity, not yet the 2.1 KMS key', () => {
    const w = syncWorld({ east: { version: '2.0.0' } });
    const r = expectOk(call(w, 'POST', `${DEST}/cloudone-sm/s1`, body));
    expect((r.body as any).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [kms_key_id]']);
    expect(w.state.clusters.named('east').sync.destinations['cloudone-sm/s1'].settings).toEqual({ force_delete: true, identity_token_audience: 'aud', role_arn: 'arn:r' });
  });

  it('2.1 takes them all; a code host takes enterprise_url from 1.21', () => {
    const w = syncWorld({ east: { version: '2.1.0' } });
    expect((expectOk(call(w, 'POST', `${DEST}/cloudone-sm/s1`, body)).body as any).warnings).toBeNull();
    const old = syncWorld({ east: { version: '1.20.3' } });
    const gh = { access_token: 't', repository_owner: 'o', repository_name: 'r', enterprise_url: 'https://ghe.example' };
    expect((expectOk(call(old, 'POST', `${DEST}/codehost/gh1`, gh)).body as any).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [enterprise_url]']);
    const newer = syncWorld({ east: { version: '1.21.0' } });
    expect((expectOk(call(newer, 'POST', `${DEST}/codehost/gh1`, gh)).body as any).warnings).toBeNull();
  });
});

describe('replay', () => {
  it('rebuilds the same world from a log of sync settings, GitHub Apps, in-mem destinations and their sync jobs', async () => {
    const { World } = await import('../../../src/world.js');
    const w = syncWorld();
    writeSecret(w, 'app/web', { K: 'v' });
    expectOk(call(w, 'PATCH', 'sys/sync/config', { disabled: true, queue_capacity: 3 }));
    expectOk(call(w, 'POST', 'sys/sync/github-apps/ci', { app_id: 9, private_key: PEM }));
    expectOk(call(w, 'POST', `${DEST}/in-mem/mem1`, {}));
    expectOk(setAssociation(w, 'in-mem', 'mem1', 'secret', 'app/web'));
    expectOk(call(w, 'DELETE', 'sys/sync/config'));
    w.advance(5_000);
    const replayed = World.replay(JSON.parse(JSON.stringify(w.log)));
    expect(replayed.stateHash()).toBe(w.stateHash());
  });
});
