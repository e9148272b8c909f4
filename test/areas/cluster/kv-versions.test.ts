// KV-v2 `max_versions` with the service's `config` and `metadata` endpoints, and check-and-set
// (hashicorp/vault-plugin-secrets-kv path_config.go, path_metadata.go, path_data.go; the choices are in
// src/areas/core/README.md, "KV v2 versions").
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import { World } from '../../../src/world.js';
import { dataOf, drPair, drWorld, errorsOf, expectOk, expectRefused, rootOf } from '../replication/helpers.js';
import { perfPair, perfWorld } from '../replication/performance/helpers.js';

function world(): World {
  return World.create({ east: { mounts: { secret: 'kv-v2', other: 'kv-v2', old: 'kv-v1' } } }, { seed: 5 });
}

function send(w: World, method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'LIST', path: string, body?: unknown, cluster = 'east'): ApiResponse {
  return w.request(cluster, { method, path, body, token: rootOf(w, cluster) });
}

/** Writes `n` versions of a key; the last response. */
function rewrite(w: World, key: string, n: number, mount = 'secret', cluster = 'east'): ApiResponse {
  let r!: ApiResponse;
  for (let i = 1; i <= n; i++) r = expectOk(send(w, 'POST', `${mount}/data/${key}`, { data: { i } }, cluster));
  return r;
}

function metadata(w: World, key: string, mount = 'secret', cluster = 'east'): any {
  return dataOf(expectOk(send(w, 'GET', `${mount}/metadata/${key}`, undefined, cluster)));
}

const heldVersions = (w: World, key: string, mount = 'secret'): number[] => Object.keys(metadata(w, key, mount).versions).map(Number);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('<mount>/config', () => {
  it('reads the service defaults until written: max_versions 0 (meaning 10), cas_required false, delete_version_after "0s"', () => {
    const w = world();
    expect(dataOf(expectOk(send(w, 'GET', 'secret/config')))).toEqual({ cas_required: false, delete_version_after: '0s', max_versions: 0 });
  });

  it('POST and PUT set the fields given (204), keep the others, and advance the WAL', () => {
    const w = world();
    const wal = w.state.clusters.named('east').wal.last;
    const r = send(w, 'POST', 'secret/config', { max_versions: 4, delete_version_after: '1h30m' });
    expect(r.status).toBe(204);
    expect(w.state.clusters.named('east').wal.last).toBe(wal + 1);
    expect(send(w, 'PUT', 'secret/config', { cas_required: true }).status).toBe(204);
    expect(dataOf(send(w, 'GET', 'secret/config'))).toEqual({ cas_required: true, delete_version_after: '1h30m0s', max_versions: 4 });
    // A negative delete_version_after disables it on every key (the service stores -1s); 0 clears it.
    send(w, 'POST', 'secret/config', { delete_version_after: '-5s' });
    expect(dataOf(send(w, 'GET', 'secret/config')).delete_version_after).toBe('-1s');
    send(w, 'POST', 'secret/config', { delete_version_after: 0 });
    expect(dataOf(send(w, 'GET', 'secret/config')).delete_version_after).toBe('0s');
    // The other mount keeps its own.
    expect(dataOf(send(w, 'GET', 'other/config')).max_versions).toBe(0);
  });

  it('a body with none of its fields changes nothing and writes nothing', () => {
    const w = world();
    const events = w.log.length;
    const r = send(w, 'POST', 'secret/config', { unrelated: 1 });
    expect(r.status).toBe(200);
    expect((r.body as any).warnings[0]).toContain('unrecognized parameters: [unrelated]');
    expect(w.log.length).toBe(events);
  });

  it('wrong types are a 400 naming the field, and change nothing', () => {
    const w = world();
    const hash = w.stateHash();
    const events = w.log.length;
    expectRefused(send(w, 'POST', 'secret/config', { max_versions: 'ten' }), 400, 'for field "max_versions"');
    expectRefused(send(w, 'POST', 'secret/config', { max_versions: 3, cas_required: 'maybe' }), 400, 'for field "cas_required"');
    expectRefused(send(w, 'POST', 'secret/config', { delete_version_after: 'soon' }), 400, 'for field "delete_version_after"');
    expect(w.stateHash()).toBe(hash);
    expect(w.log.length).toBe(events);
  });

  it('is a KV-v2 path only: a KV-v1 mount stores `config` as a secret like any key', () => {
    const w = world();
    expect(send(w, 'POST', 'old/config', { max_versions: 2 }).status).toBe(204);
    expect(dataOf(send(w, 'GET', 'old/config'))).toEqual({ max_versions: 2 });
  });
});

describe('max_versions: writes keep the effective max, dropping the oldest', () => {
  it('the default keeps 10: oldest_version is 0 until the 10th write, then moves with each write', () => {
    const w = world();
    rewrite(w, 'app', 9);
    expect(metadata(w, 'app')).toMatchObject({ current_version: 9, oldest_version: 0, max_versions: 0 });
    rewrite(w, 'app', 1);
    // At 10 versions the service's window moves to 1 without dropping any.
    expect(metadata(w, 'app')).toMatchObject({ current_version: 10, oldest_version: 1 });
    expect(heldVersions(w, 'app')).toEqual(range(1, 10));
    rewrite(w, 'app', 15);
    expect(metadata(w, 'app')).toMatchObject({ current_version: 25, oldest_version: 16 });
    expect(heldVersions(w, 'app')).toEqual(range(16, 25));
  });

  it('reading a dropped version is a 404 with no errors; a held one answers with its data', () => {
    const w = world();
    rewrite(w, 'app', 12);
    const dropped = send(w, 'GET', 'secret/data/app?version=2');
    expect(dropped.status).toBe(404);
    expect(dropped.body).toEqual({ errors: [] });
    const held = dataOf(expectOk(send(w, 'GET', 'secret/data/app?version=3')));
    expect(held.data).toEqual({ i: 3 });
    expect(held.metadata.version).toBe(3);
    expect(dataOf(send(w, 'GET', 'secret/data/app')).data).toEqual({ i: 12 });
    expectRefused(send(w, 'GET', 'secret/data/app?version=two'), 400, 'for field "version"');
  });

  it("the mount's config sets the max for its keys", () => {
    const w = world();
    send(w, 'POST', 'secret/config', { max_versions: 3 });
    rewrite(w, 'app', 7);
    expect(heldVersions(w, 'app')).toEqual([5, 6, 7]);
    expect(metadata(w, 'app')).toMatchObject({ current_version: 7, oldest_version: 5, max_versions: 0 });
    // Another mount keeps the default.
    rewrite(w, 'app', 12, 'other');
    expect(heldVersions(w, 'app', 'other')).toEqual(range(3, 12));
  });

  it("a key's max_versions overrides the mount's when larger: the service keeps max(key's, mount's)", () => {
    const w = world();
    send(w, 'POST', 'secret/config', { max_versions: 3 });
    expect(send(w, 'POST', 'secret/metadata/big', { max_versions: 5 }).status).toBe(204);
    rewrite(w, 'big', 8);
    expect(heldVersions(w, 'big')).toEqual(range(4, 8));
    // A key's lower max does not go below the mount's (AddVersion takes the larger of the two).
    send(w, 'POST', 'secret/metadata/small', { max_versions: 1 });
    rewrite(w, 'small', 8);
    expect(heldVersions(w, 'small')).toEqual([6, 7, 8]);
    // Without a mount config, the key's own max applies, under the default 10 too.
    send(w, 'POST', 'other/metadata/k', { max_versions: 2 });
    rewrite(w, 'k', 5, 'other');
    expect(heldVersions(w, 'k', 'other')).toEqual([4, 5]);
  });

  it('lowering max_versions prunes on the next write, not when it is set (as the service does)', () => {
    const w = world();
    rewrite(w, 'app', 10);
    send(w, 'POST', 'secret/metadata/app', { max_versions: 2 });
    expect(heldVersions(w, 'app')).toEqual(range(1, 10));
    rewrite(w, 'app', 1);
    expect(heldVersions(w, 'app')).toEqual([10, 11]);
    expect(metadata(w, 'app').oldest_version).toBe(10);
    // Raising it again keeps what is held and lets the window grow.
    send(w, 'POST', 'secret/metadata/app', { max_versions: 4 });
    rewrite(w, 'app', 3);
    expect(heldVersions(w, 'app')).toEqual([11, 12, 13, 14]);
  });

  it('a key rewritten 2,500 times holds 10 versions', () => {
    const w = world();
    rewrite(w, 'hot', 2_500);
    expect(w.state.clusters.named('east').storage.kv['secret/'].get('hot')!.versions.size).toBe(10);
    expect(metadata(w, 'hot')).toMatchObject({ current_version: 2_500, oldest_version: 2_491 });
  });
});

describe('<mount>/metadata/<key>', () => {
  it('GET reports the key: versions, current and oldest, its own settings, times', () => {
    const w = world();
    rewrite(w, 'app', 2);
    send(w, 'DELETE', 'secret/data/app');
    const m = metadata(w, 'app');
    expect(m).toMatchObject({ cas_required: false, current_version: 2, custom_metadata: null, delete_version_after: '0s', max_versions: 0, oldest_version: 0 });
    expect(Object.keys(m.versions)).toEqual(['1', '2']);
    expect(m.versions['1']).toMatchObject({ deletion_time: '', destroyed: false });
    expect(m.versions['2'].deletion_time).not.toBe('');
    expect(m.created_time).toBe(m.versions['1'].created_time);
    expect(send(w, 'GET', 'secret/metadata/none').status).toBe(404);
  });

  it('POST sets max_versions, cas_required, delete_version_after and custom_metadata; a key with no data gets metadata alone', () => {
    const w = world();
    const r = send(w, 'POST', 'secret/metadata/new', { max_versions: 7, cas_required: true, delete_version_after: '10m', custom_metadata: { owner: 'ops', tier: 2, on: true } });
    expect(r.status).toBe(204);
    const m = metadata(w, 'new');
    expect(m).toMatchObject({ current_version: 0, oldest_version: 0, max_versions: 7, cas_required: true, delete_version_after: '10m0s', custom_metadata: { owner: 'ops', tier: '2', on: '1' }, versions: {} });
    expect(m.created_time).toBe(m.updated_time);
    // The data path answers 404: no version yet. A write with cas 0 creates version 1 and shows the custom metadata.
    expect(send(w, 'GET', 'secret/data/new').status).toBe(404);
    const written = dataOf(expectOk(send(w, 'POST', 'secret/data/new', { data: { a: 1 }, options: { cas: 0 } })));
    expect(written).toMatchObject({ version: 1, custom_metadata: { owner: 'ops', tier: '2', on: '1' } });
    expect(dataOf(send(w, 'GET', 'secret/data/new')).metadata.custom_metadata).toEqual({ owner: 'ops', tier: '2', on: '1' });
    // A later write of one field keeps the others.
    send(w, 'POST', 'secret/metadata/new', { cas_required: false });
    expect(metadata(w, 'new')).toMatchObject({ max_versions: 7, cas_required: false, custom_metadata: { owner: 'ops' } });
  });

  it('DELETE removes the key and every version; LIST lists keys', () => {
    const w = world();
    rewrite(w, 'a/one', 3);
    rewrite(w, 'a/two', 1);
    rewrite(w, 'b', 1);
    expect(dataOf(send(w, 'LIST', 'secret/metadata/')).keys).toEqual(['a/', 'b']);
    expect(dataOf(send(w, 'LIST', 'secret/metadata/a')).keys).toEqual(['one', 'two']);
    expect(send(w, 'DELETE', 'secret/metadata/a/one').status).toBe(204);
    expect(send(w, 'GET', 'secret/metadata/a/one').status).toBe(404);
    expect(send(w, 'GET', 'secret/data/a/one?version=1').status).toBe(404);
    expect(dataOf(send(w, 'LIST', 'secret/metadata/a')).keys).toEqual(['two']);
    // Written again, it starts at version 1 with the defaults.
    rewrite(w, 'a/one', 1);
    expect(metadata(w, 'a/one')).toMatchObject({ current_version: 1, oldest_version: 0 });
  });

  it('LIST lists every key with metadata (deleted ones and metadata-only ones too); ?exclude_deleted=true leaves out keys whose current version is deleted', () => {
    const w = world();
    rewrite(w, 'live', 1);
    rewrite(w, 'gone', 2);
    send(w, 'DELETE', 'secret/data/gone');
    send(w, 'POST', 'secret/metadata/planned', { max_versions: 3 });
    rewrite(w, 'dir/deleted', 1);
    send(w, 'DELETE', 'secret/data/dir/deleted');
    expect(dataOf(send(w, 'LIST', 'secret/metadata/')).keys).toEqual(['dir/', 'gone', 'live', 'planned']);
    expect(dataOf(send(w, 'GET', 'secret/metadata/?list=true&exclude_deleted=true')).keys).toEqual(['dir/', 'live', 'planned']);
    expect(send(w, 'LIST', 'secret/metadata/dir?exclude_deleted=true').status).toBe(404);
    expectRefused(send(w, 'LIST', 'secret/metadata/?exclude_deleted=sometimes'), 400, 'for field "exclude_deleted"');
  });

  it('custom_metadata keys named after Object.prototype members are stored and read like any other', () => {
    const w = world();
    const cm = JSON.parse('{"__proto__": "a", "constructor": "b", "toString": "c"}');
    expect(send(w, 'POST', 'secret/metadata/app', { custom_metadata: cm }).status).toBe(204);
    const read = metadata(w, 'app').custom_metadata;
    expect(Object.keys(read).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(({} as any).a).toBeUndefined();
    expect(World.replay(w.history()).stateHash()).toBe(w.stateHash());
  });

  it('a metadata write on the folder itself is "missing path"; bad input is a 400 naming the field or the rule, and changes nothing', () => {
    const w = world();
    rewrite(w, 'app', 1);
    const hash = w.stateHash();
    const events = w.log.length;
    expectRefused(send(w, 'POST', 'secret/metadata/', { max_versions: 2 }), 400, 'missing path');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { max_versions: [1, 2] }), 400, 'for field "max_versions"');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { cas_required: 'perhaps' }), 400, 'for field "cas_required"');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { delete_version_after: '-1s' }), 400, 'for field "delete_version_after"');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { custom_metadata: 'owner=ops' }), 400, 'for field "custom_metadata"');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { custom_metadata: { owner: { nested: true } } }), 400, 'custom_metadata validation failed');
    expectRefused(send(w, 'POST', 'secret/metadata/app', { custom_metadata: { owner: '' } }), 400, 'length of value for key "owner" is 0 but must be 0 < len(value) <= 512');
    const many = Object.fromEntries(range(1, 65).map((i) => [`k${i}`, 'v']));
    expectRefused(send(w, 'POST', 'secret/metadata/app', { custom_metadata: many }), 400, 'payload must contain at most 64 keys, provided 65');
    const two = errorsOf(send(w, 'POST', 'secret/metadata/app', { custom_metadata: { ['x'.repeat(129)]: 'v', bell: 'a\u0007' } }))[0];
    expect(two).toMatch(/^2 errors occurred:\n\t\* custom_metadata validation failed: value for key "bell" contains unprintable characters\n\t\* custom_metadata validation failed: length of key "x+" is 129/);
    expect(w.stateHash()).toBe(hash);
    expect(w.log.length).toBe(events);
  });

  it('cas_required false on a key is ignored with the service warning when the mount requires it', () => {
    const w = world();
    send(w, 'POST', 'secret/config', { cas_required: true });
    const r = expectOk(send(w, 'POST', 'secret/metadata/app', { cas_required: false }));
    expect((r.body as any).warnings).toEqual(['"cas_required" set to false, but is mandated by backend config. This value will be ignored.']);
    expectRefused(send(w, 'POST', 'secret/data/app', { data: { a: 1 } }), 400, 'check-and-set parameter required for this call');
  });
});

describe('check-and-set on data writes', () => {
  it('options.cas must equal the current version (0: the key must not exist); a mismatch changes nothing', () => {
    const w = world();
    expectOk(send(w, 'POST', 'secret/data/app', { data: { a: 1 }, options: { cas: 0 } }));
    const hash = w.stateHash();
    expectRefused(send(w, 'POST', 'secret/data/app', { data: { a: 2 }, options: { cas: 0 } }), 400, 'check-and-set parameter did not match the current version');
    expectRefused(send(w, 'POST', 'secret/data/app', { data: { a: 2 }, options: { cas: 5 } }), 400, 'check-and-set parameter did not match the current version');
    expectRefused(send(w, 'POST', 'secret/data/app', { data: { a: 2 }, options: { cas: 'one' } }), 400, 'error parsing check-and-set parameter');
    expect(w.stateHash()).toBe(hash);
    expect(dataOf(expectOk(send(w, 'POST', 'secret/data/app', { data: { a: 2 }, options: { cas: '1' } }))).version).toBe(2);
  });

  it("cas_required on the mount or on the key refuses a write without cas, with the service's text", () => {
    const w = world();
    send(w, 'POST', 'secret/metadata/locked', { cas_required: true });
    expectRefused(send(w, 'POST', 'secret/data/locked', { data: { a: 1 } }), 400, 'check-and-set parameter required for this call');
    expectOk(send(w, 'POST', 'secret/data/free', { data: { a: 1 } }));
    send(w, 'POST', 'secret/config', { cas_required: true });
    expectRefused(send(w, 'POST', 'secret/data/free', { data: { a: 2 } }), 400, 'check-and-set parameter required for this call');
    expectOk(send(w, 'POST', 'secret/data/free', { data: { a: 2 }, options: { cas: 1 } }));
    // Another mount is not affected.
    expectOk(send(w, 'POST', 'other/data/free', { data: { a: 1 } }));
  });
});

describe('config and metadata are replicated state', () => {
  it('reach a DR secondary with the WAL (local mounts included), which holds the versions its primary kept', () => {
    const w = drWorld({ seed: 21 });
    drPair(w);
    w.advance(10_000);
    send(w, 'POST', 'secret/config', { max_versions: 3, cas_required: true });
    send(w, 'POST', 'secret/metadata/app', { max_versions: 4, custom_metadata: { owner: 'ops' } });
    send(w, 'POST', 'cache/config', { max_versions: 2 });
    for (let i = 0; i <= 5; i++) expectOk(send(w, 'POST', 'secret/data/app', { data: { i }, options: { cas: i } }));
    w.advance(5_000);
    const east = w.state.clusters.named('east');
    const west = w.state.clusters.named('west');
    expect(west.replication.dr.lastRemoteWal).toBe(east.wal.last);
    expect(west.storage.mounts['secret/'].kvConfig).toEqual({ maxVersions: 3, casRequired: true, deleteVersionAfter: 0 });
    // DR carries local mounts too.
    expect(west.storage.mounts['cache/'].kvConfig?.maxVersions).toBe(2);
    const rec = west.storage.kv['secret/'].get('app')!;
    expect(rec).toMatchObject({ current: 6, oldest: 3, maxVersions: 4, customMetadata: { owner: 'ops' } });
    expect([...rec.versions.keys()]).toEqual(['3', '4', '5', '6']);
    expect(w.stateHash()).toBe(World.replay(w.log).stateHash());
  });

  it('a performance secondary forwards config and metadata writes to its primary, and receives them; its local mounts stay its own', () => {
    const spec = { mounts: { secret: 'kv-v2' as const, mine: { type: 'kv-v2' as const, local: true } } };
    const w = perfWorld({ seed: 22, clusters: { east: spec, west: spec } });
    const token = perfPair(w);
    const onWest = (method: 'GET' | 'POST', path: string, body?: unknown) => w.request('west', { method, path, body, token });
    expect(onWest('POST', 'secret/config', { max_versions: 2 }).status).toBe(204);
    expect(onWest('POST', 'secret/metadata/app', { custom_metadata: { team: 'a' } }).status).toBe(204);
    expect(w.log.filter((e) => e.type === 'kv-config-written' || e.type === 'kv-metadata-written').map((e) => [e.cluster, (e as { forwardedBy?: string }).forwardedBy])).toEqual([
      ['east', 'west'],
      ['east', 'west'],
    ]);
    expect(dataOf(send(w, 'GET', 'secret/config')).max_versions).toBe(2);
    w.advance(5_000);
    expect(dataOf(onWest('GET', 'secret/config')).max_versions).toBe(2);
    expect(dataOf(onWest('GET', 'secret/metadata/app')).custom_metadata).toEqual({ team: 'a' });
    // Check-and-set is checked on the primary, where the forwarded write lands.
    send(w, 'POST', 'secret/config', { cas_required: true });
    w.advance(5_000);
    expectRefused(onWest('POST', 'secret/data/app', { data: { a: 1 } }), 400, 'check-and-set parameter required for this call');
    expectRefused(onWest('POST', 'secret/data/app', { data: { a: 1 }, options: { cas: 3 } }), 400, 'check-and-set parameter did not match the current version');
    expect(dataOf(expectOk(onWest('POST', 'secret/data/app', { data: { a: 1 }, options: { cas: 0 } }))).version).toBe(1);
    // The primary's local mount, config included, never reaches a performance secondary.
    expect(send(w, 'POST', 'mine/config', { max_versions: 5 }).status).toBe(204);
    w.advance(5_000);
    expect(dataOf(send(w, 'GET', 'mine/config')).max_versions).toBe(5);
    expect(onWest('GET', 'mine/config').status).toBe(404);
    expect(w.state.clusters.named('west').storage.mounts['mine/']).toBeUndefined();
  });
});

describe('the KV-v2 paths replsim does not simulate', () => {
  it('answer 501 and change nothing: PATCH of data and metadata, delete, undelete, destroy, subkeys', () => {
    const w = world();
    rewrite(w, 'app', 2);
    const hash = w.stateHash();
    for (const [method, path] of [
      ['PATCH', 'secret/data/app'],
      ['PATCH', 'secret/metadata/app'],
      ['POST', 'secret/delete/app'],
      ['PUT', 'secret/undelete/app'],
      ['POST', 'secret/destroy/app'],
      ['GET', 'secret/subkeys/app'],
    ] as const) {
      const r = w.request('east', { method, path, body: { versions: [1] }, token: rootOf(w, 'east') });
      expect(r.status, `${method} ${path}`).toBe(501);
    }
    expect(w.stateHash()).toBe(hash);
  });
});
