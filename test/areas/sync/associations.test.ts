import { describe, expect, it } from 'vitest';
import { DEST, accessorOf, call, createDestination, dataOf, expectOk, expectRefused, removeAssociation, setAssociation, statusOf, syncWorld, writeSecret } from './helpers.js';

function worldWithSecret() {
  const w = syncWorld();
  writeSecret(w, 'app/web', { API_KEY: 'k1' });
  createDestination(w, 'codehost', 'gh1');
  return w;
}

describe('sync associations: set', () => {
  it('set answers the destination associations: entry keyed "<mount_accessor>/<secret_name>", PENDING, store_name and store_type', () => {
    const w = worldWithSecret();
    const acc = accessorOf(w);
    const r = dataOf(expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web')));
    expect(r).toEqual({
      associated_secrets: { [`${acc}/app/web`]: { accessor: acc, secret_name: 'app/web', sync_status: 'PENDING', updated_at: '2026-01-01T00:00:00Z' } },
      store_name: 'gh1',
      store_type: 'codehost',
    });
  });

  it('set of an existing association refreshes it without a duplicate', () => {
    const w = worldWithSecret();
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(5_000);
    const r = dataOf(expectOk(setAssociation(w, 'codehost', 'gh1', 'secret/', 'app/web')));
    expect(Object.keys(r.associated_secrets)).toHaveLength(1);
    expect(Object.values<any>(r.associated_secrets)[0]).toMatchObject({ sync_status: 'PENDING', updated_at: '2026-01-01T00:00:05Z' });
    expect(dataOf(call(w, 'LIST', 'sys/sync/associations')).total_associations).toBe(1);
  });

  it('only KV-v2 secrets can be associated (simulator wording for a KV-v1 mount)', () => {
    const w = worldWithSecret();
    expect(call(w, 'POST', 'old/v1secret', { a: 'b' }).status).toBe(204);
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'old', 'v1secret'), 400, 'mount "old" is a KV version 1 mount: only KV version 2 secrets can be synced', true);
  });

  it('a mount that does not exist in the namespace is refused (simulator wording)', () => {
    const w = worldWithSecret();
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'nomount', 'app/web'), 400, 'mount "nomount" not found in this namespace', true);
  });

  it('set needs read access to the secret: 403 with the service text', () => {
    const w = worldWithSecret();
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web', 'syncer'), 403, 'permission denied to read the content of the secret app/web in mount secret', true);
    expect(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web', 'operator').status).toBe(200);
  });

  it('a secret that does not exist, or a name ending in "/", is refused with the UI text', () => {
    const w = worldWithSecret();
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'secret', 'nothing-here'), 400, 'Secret not found. Please provide full path to existing secret', true);
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/'), 400, 'Secret not found. Please provide full path to existing secret', true);
  });

  it('mount and secret_name are required; the destination must exist', () => {
    const w = worldWithSecret();
    expectRefused(call(w, 'POST', `${DEST}/codehost/gh1/associations/set`, { secret_name: 'app/web' }), 400, 'missing required field "mount"');
    expectRefused(call(w, 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret' }), 400, 'missing required field "secret_name"');
    expectRefused(setAssociation(w, 'codehost', 'nope', 'secret', 'app/web'), 404, 'destination codehost/nope does not exist');
  });

  it('the set path needs update on the sync path: a read-only token is refused', () => {
    const w = worldWithSecret();
    expectRefused(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web', 'viewer'), 403, 'permission denied');
  });
});

describe('sync associations: remove', () => {
  it('remove of a linked association answers it PENDING (the unsync is queued)', () => {
    const w = worldWithSecret();
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(5_000);
    const r = dataOf(expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web')));
    expect(Object.values<any>(r.associated_secrets)[0].sync_status).toBe('PENDING');
  });

  it('remove reports success when the association does not exist, and changes nothing', () => {
    const w = worldWithSecret();
    const before = w.log.length;
    const hash = w.stateHash();
    const r = expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expect(dataOf(r)).toEqual({ associated_secrets: {}, store_name: 'gh1', store_type: 'codehost' });
    expectOk(removeAssociation(w, 'codehost', 'gh1', 'nomount', 'x'));
    expect(w.log.length).toBe(before);
    expect(w.stateHash()).toBe(hash);
  });

  it('remove takes the secret as secret_name, or as name (the spec lists `name`)', () => {
    const w = worldWithSecret();
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', name: 'app/web' }));
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1/associations`)).associated_secrets[`${accessorOf(w)}/app/web`].sync_status).toBe('PENDING');
    expect(call(w, 'LIST', 'sys/sync/associations').status).toBe(404);
  });

  it('remove does not need read access to the secret (checked on set only)', () => {
    const w = worldWithSecret();
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    const r = call(w, 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'app/web' }, 'syncer');
    expect(r.status).toBe(200);
  });
});

describe('sync associations: reads', () => {
  it('GET of a destination associations; a missing destination is a 404', () => {
    const w = worldWithSecret();
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1/associations`))).toEqual({ associated_secrets: {}, store_name: 'gh1', store_type: 'codehost' });
    expect(call(w, 'GET', `${DEST}/codehost/none/associations`)).toEqual({ status: 404, body: { errors: [] } });
  });

  it('LIST sys/sync/associations: key_info per secret, keys, total_associations and total_secrets', () => {
    const w = worldWithSecret();
    writeSecret(w, 'db', { pw: 'x' });
    createDestination(w, 'cloudone-sm', 'store1');
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expectOk(setAssociation(w, 'cloudone-sm', 'store1', 'secret', 'app/web'));
    expectOk(setAssociation(w, 'cloudone-sm', 'store1', 'secret', 'db'));
    expect(dataOf(call(w, 'LIST', 'sys/sync/associations'))).toEqual({
      key_info: { 'secret/app/web': [{ mount: 'secret/', secret_path: 'app/web' }], 'secret/db': [{ mount: 'secret/', secret_path: 'db' }] },
      keys: ['secret/app/web', 'secret/db'],
      total_associations: 3,
      total_secrets: 2,
    });
  });

  it('GET by secret (path form and query form) gives every destination of the secret keyed "<type>/<name>"', () => {
    const w = worldWithSecret();
    createDestination(w, 'cloudone-sm', 'store1');
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expectOk(setAssociation(w, 'cloudone-sm', 'store1', 'secret', 'app/web'));
    const expected = {
      associated_destinations: {
        'cloudone-sm/store1': { type: 'cloudone-sm', name: 'store1', sync_status: 'PENDING', updated_at: '2026-01-01T00:00:00Z' },
        'codehost/gh1': { type: 'codehost', name: 'gh1', sync_status: 'PENDING', updated_at: '2026-01-01T00:00:00Z' },
      },
    };
    expect(dataOf(call(w, 'GET', 'sys/sync/associations/secret/app/web'))).toEqual(expected);
    expect(dataOf(call(w, 'GET', 'sys/sync/associations/destinations?mount=secret&secret_name=app%2Fweb'))).toEqual(expected);
  });

  it('the query form serves a mount whose path contains a slash', () => {
    const w = syncWorld({ east: { mounts: { 'kv/team': 'kv-v2' } } });
    expectOk(call(w, 'POST', 'kv/team/data/a/b', { data: { x: '1' } }));
    createDestination(w, 'codehost', 'gh1');
    expectOk(setAssociation(w, 'codehost', 'gh1', 'kv/team', 'a/b'));
    expect(statusOf(w, 'codehost', 'gh1', 'kv/team', 'a/b')).toBe('PENDING');
    expect(dataOf(call(w, 'GET', 'sys/sync/associations/kv/team/a/b')).associated_destinations['codehost/gh1'].sync_status).toBe('PENDING');
  });

  it('a secret without associations reads as an empty map; an unknown mount is refused', () => {
    const w = worldWithSecret();
    expect(dataOf(call(w, 'GET', 'sys/sync/associations/secret/app/web'))).toEqual({ associated_destinations: {} });
    expectRefused(call(w, 'GET', 'sys/sync/associations/destinations?mount=nomount&secret_name=x'), 400, 'mount "nomount" not found');
    expectRefused(call(w, 'GET', 'sys/sync/associations/destinations?mount=secret'), 400, 'missing required field "secret_name"');
  });

  it('associations in a namespace use that namespace mounts', () => {
    const w = syncWorld();
    expectOk(call(w, 'POST', 'apps/data/cfg', { data: { a: '1' } }, 'teamA', 'east', 'team-a'));
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { access_token: 't', repository_owner: 'o', repository_name: 'r' }, 'teamA', 'east', 'team-a'));
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'apps', secret_name: 'cfg' }, 'teamA', 'east', 'team-a'));
    expect(dataOf(call(w, 'LIST', 'sys/sync/associations', undefined, 'teamA', 'east', 'team-a'))).toMatchObject({ keys: ['apps/cfg'], total_associations: 1 });
    expect(call(w, 'LIST', 'sys/sync/associations').status).toBe(404);
  });
});
