// Regression tests of issue 14's findings 1–3: request-derived names that are Object.prototype
// members, malformed %-escapes, headers that are not strings, and bodies past the listener's JSON
// limits. Each of these threw, polluted Object.prototype for the whole process, or stored data the
// state hash could not hash, before the fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../src/kernel/http/http.js';
import { DEFAULT_REQUEST_LIMITS } from '../../../src/kernel/http/limits.js';
import { main } from '../../../src/cli/main.js';
import { World } from '../../../src/world.js';
import { toJsonl } from '../../../src/kernel/persist.js';
import { dataOf, errorsOf } from './helpers.js';

const PERF = 'sys/replication/performance';
const PROTO_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__', 'prototype'];

function perfPrimary(): { w: World; token: string } {
  const w = World.create({ east: { mounts: { secret: 'kv-v2', old: 'kv-v1' } }, west: {} }, { seed: 3 });
  const token = w.tokenNamed('east', 'root')!;
  expect(w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, body: {}, token }).status).toBeLessThan(300);
  expect(w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'sec1' }, token }).status).toBe(200);
  expect(w.request('east', { method: 'POST', path: 'secret/data/app', body: { data: { a: 1 } }, token }).status).toBe(200);
  return { w, token };
}

/** Sends a request that must be refused: the world (state, log, generator) stays as it was. */
function refused(w: World, cluster: string, req: ApiRequest) {
  const state = w.state;
  const log = w.log.length;
  const rng = w.generatorState();
  const r = w.request(cluster, req);
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(Object.keys(r.body as object)).toEqual(['errors']);
  expect(w.state).toBe(state);
  expect(w.log.length).toBe(log);
  expect(w.generatorState()).toEqual(rng);
  return r;
}

afterEach(() => {
  // Whatever a test did, nothing may have reached Object.prototype.
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).filter).toBeUndefined();
});

describe('finding 1: no request reaches Object.prototype', () => {
  it('DELETE then POST paths-filter/__proto__ are refused and leave Object.prototype alone; another world stores exactly its data', () => {
    const { w, token } = perfPrimary();
    const del = refused(w, 'east', { method: 'DELETE', path: `${PERF}/primary/paths-filter/__proto__`, token });
    expect(del.status).toBe(400);
    refused(w, 'east', { method: 'POST', path: `${PERF}/primary/paths-filter/__proto__`, body: { mode: 'deny', paths: ['secret/'] }, token });
    expect(Object.hasOwn(Object.prototype, 'filter')).toBe(false);

    const other = World.create({ east: {} }, { seed: 1 });
    const t = other.tokenNamed('east', 'root')!;
    expect(other.request('east', { method: 'POST', path: 'secret/data/x', body: { data: { v: 1 } }, token: t }).status).toBe(200);
    expect(dataOf(other.request('east', { method: 'GET', path: 'secret/data/x', token: t })).data).toEqual({ v: 1 });
    const stored = other.state.clusters.named('east').storage.kv['secret/']?.get('x');
    expect(Object.keys(stored ?? {})).toEqual(['current', 'versions', 'createdAt', 'updatedAt']);
  });

  it('replsim run a.yaml b.yaml: a first file sending those requests leaves the second, valid file valid (it exited 2 with unknown key "filter")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-pollution-'));
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(
      a,
      `name: sends __proto__ as a secondary id
clusters:
  east: {}
steps:
  - request: POST ${PERF}/primary/enable
    on: east
  - request: DELETE ${PERF}/primary/paths-filter/__proto__
    on: east
    expect: { status: 400 }
  - request: POST ${PERF}/primary/paths-filter/__proto__
    on: east
    body: { mode: deny, paths: [secret/] }
    expect: { status: 400 }
`,
    );
    writeFileSync(
      b,
      `name: a valid file
clusters:
  east: {}
steps:
  - request: POST secret/data/app
    on: east
    body: { data: { v: 1 } }
  - request: GET secret/data/app
    on: east
    expect: { data: { data: { v: 1 } } }
`,
    );
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['run', a, b, '--no-color', '--quiet'], { out: (l) => out.push(l), err: (l) => err.push(l), stdout: {}, env: {} });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.join('\n')).toMatch(/2 files: 2 valid, 0 invalid, 0 not run/);
  });

  it('a secondary id, token or namespace named after an Object.prototype member is an unknown one', () => {
    const { w, token } = perfPrimary();
    for (const name of PROTO_NAMES) {
      expect(errorsOf(refused(w, 'east', { method: 'POST', path: `${PERF}/primary/paths-filter/${name}`, body: { mode: 'allow', paths: ['secret/'] }, token }))[0]).toMatch(/.+/);
      expect(refused(w, 'east', { method: 'GET', path: `${PERF}/primary/paths-filter/${name}`, token }).status).toBe(404);
      refused(w, 'east', { method: 'DELETE', path: `${PERF}/primary/paths-filter/${name}`, token });
      refused(w, 'east', { method: 'POST', path: `${PERF}/primary/revoke-secondary`, body: { id: name }, token });
      expect(refused(w, 'east', { method: 'GET', path: 'secret/data/app', token: name }).status).toBe(403);
      expect(refused(w, 'east', { method: 'GET', path: 'secret/data/app', token, namespace: name }).status).toBe(404);
    }
  });

  it('a secondary token for an id named like a prototype member is issued and found again (an own entry like any other)', () => {
    const { w, token } = perfPrimary();
    expect(w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'toString' }, token }).status).toBe(200);
    expect(w.request('east', { method: 'POST', path: `${PERF}/primary/paths-filter/toString`, body: { mode: 'allow', paths: ['secret/'] }, token }).status).toBe(204);
    expect(dataOf(w.request('east', { method: 'GET', path: `${PERF}/primary/paths-filter/toString`, token }))).toEqual({ mode: 'allow', paths: ['secret/'] });
    expect(refused(w, 'east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: '__proto__' }, token }).status).toBe(400);
  });
});

describe('finding 2: answers instead of throws', () => {
  it('KV-v2 keys named after Object.prototype members are written, read, listed and deleted like any other', () => {
    const { w, token } = perfPrimary();
    for (const name of PROTO_NAMES) {
      expect(w.request('east', { method: 'GET', path: `secret/data/${name}`, token }).status).toBe(404);
      expect(w.request('east', { method: 'GET', path: `secret/metadata/${name}`, token }).status).toBe(404);
      expect(w.request('east', { method: 'DELETE', path: `secret/data/${name}`, token }).status).toBe(204);
      expect(w.request('east', { method: 'POST', path: `secret/data/${name}`, body: { data: { name } }, token }).status).toBe(200);
      expect(dataOf(w.request('east', { method: 'GET', path: `secret/data/${name}`, token })).data).toEqual({ name });
      expect(dataOf(w.request('east', { method: 'GET', path: `secret/metadata/${name}`, token })).current_version).toBe(1);
      expect(w.request('east', { method: 'POST', path: `old/${name}`, body: { v: name }, token }).status).toBe(204);
      expect(dataOf(w.request('east', { method: 'GET', path: `old/${name}`, token }))).toEqual({ v: name });
    }
    expect(dataOf(w.request('east', { method: 'LIST', path: 'secret/metadata/', token })).keys).toEqual(['app', ...PROTO_NAMES].sort());
    for (const name of PROTO_NAMES) expect(w.request('east', { method: 'DELETE', path: `secret/metadata/${name}`, token }).status).toBe(204);
    expect(dataOf(w.request('east', { method: 'LIST', path: 'secret/metadata/', token })).keys).toEqual(['app']);
    // The log of all that replays to the same state.
    expect(World.replay(w.history()).stateHash()).toBe(w.stateHash());
  });

  it('a sync association of a secret named after a prototype member: refused while absent, synced like any other when written', () => {
    const { w, token } = perfPrimary();
    const set = (secret_name: string) => w.request('east', { method: 'POST', path: 'sys/sync/destinations/codehost/gh1/associations/set', body: { mount: 'secret', secret_name }, token });
    expect(w.request('east', { method: 'POST', path: 'sys/sync/destinations/codehost/gh1', body: { access_token: 'github_pat_example', repository_owner: 'acme', repository_name: 'web' }, token }).status).toBe(200);
    for (const name of PROTO_NAMES) {
      const state = w.state;
      expect(set(name).status).toBe(400); // threw "Cannot read properties of undefined"
      expect(w.state).toBe(state);
    }
    expect(w.request('east', { method: 'POST', path: 'secret/data/toString', body: { data: { k: 'v' } }, token }).status).toBe(200);
    expect(set('toString').status).toBe(200);
    w.advance(1_000);
    // The secret deleted under the association: the sync job reads it as gone, it does not throw.
    expect(w.request('east', { method: 'DELETE', path: 'secret/metadata/toString', token }).status).toBe(204);
    w.advance(1_000);
    expect(World.replay(w.history()).stateHash()).toBe(w.stateHash());
  });

  it('KV data with a key "__proto__" is stored and read back whole, and replays (the field parser dropped it)', () => {
    const { w, token } = perfPrimary();
    const data = JSON.parse('{"__proto__": {"x": 1}, "a": 2}');
    expect(w.request('east', { method: 'POST', path: 'secret/data/p', body: { data }, token }).status).toBe(200);
    const read = dataOf(w.request('east', { method: 'GET', path: 'secret/data/p', token })).data;
    expect(Object.keys(read)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(World.replay(w.history()).stateHash()).toBe(w.stateHash());
  });

  it('a KV key "__proto__" is refused in the error format (a simulator limit), the world unchanged', () => {
    const { w, token } = perfPrimary();
    for (const path of ['secret/data/__proto__', 'secret/metadata/__proto__', 'old/__proto__', 'secret/data/%5F_proto__']) {
      const r = refused(w, 'east', { method: 'POST', path, body: { data: { a: 1 } }, token });
      expect(errorsOf(r)[0]).toMatch(/__proto__/);
    }
  });

  it('a malformed %-escape is a 400 "invalid URL escape", on any route', () => {
    const { w, token } = perfPrimary();
    const cases: [string, string][] = [
      ['sys/plugins/runtimes/catalog/container/%ZZ', 'invalid URL escape "%ZZ"'],
      ['secret/data/%E0%A4%A', 'invalid URL escape "%A"'],
      ['secret/metadata/a%', 'invalid URL escape "%"'],
      [`${PERF}/primary/paths-filter/%zz1`, 'invalid URL escape "%zz"'],
      ['secret/data/%C0%AF', 'invalid URL escape: "%C0%AF" does not decode to UTF-8 text'],
    ];
    for (const [path, error] of cases) {
      const r = refused(w, 'east', { method: 'GET', path, token });
      expect(r.status).toBe(400);
      expect(errorsOf(r)).toEqual([error]);
    }
  });

  it('a cluster or token name of the World API named like a prototype member is unknown (was a TypeError)', () => {
    const { w } = perfPrimary();
    for (const name of PROTO_NAMES) {
      expect(() => w.request(name, { method: 'GET', path: 'sys/replication/status' })).toThrow(/^unknown cluster/);
      expect(w.tokenNamed('east', name)).toBeUndefined();
    }
  });

  it('a token or namespace that is not a string is a 400, not a TypeError', () => {
    const { w, token } = perfPrimary();
    for (const namespace of [42, {}, ['team-a'], true] as unknown as string[]) expect(errorsOf(refused(w, 'east', { method: 'GET', path: 'secret/data/app', token, namespace }))[0]).toMatch(/namespace/);
    for (const bad of [42, {}, ['x']] as unknown as string[]) expect(errorsOf(refused(w, 'east', { method: 'GET', path: 'secret/data/app', token: bad }))[0]).toMatch(/token/);
  });

  it('replsim run answers a malformed escape in the error format instead of "internal error (please report)"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-hostile-'));
    const file = join(dir, 'escape.yaml');
    writeFileSync(
      file,
      `name: malformed escape
clusters:
  east: {}
steps:
  - request: GET sys/plugins/runtimes/catalog/container/%ZZ
    on: east
    expect: { status: 400, error: 'invalid URL escape "%ZZ"' }
`,
    );
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['run', file, '--no-color'], { out: (l) => out.push(l), err: (l) => err.push(l), stdout: {}, env: {} });
    expect(err.join('\n')).not.toMatch(/internal error/);
    expect({ code, out: out.join('\n'), err: err.join('\n') }).toMatchObject({ code: 0 });
  });
});

describe("finding 3: the listener's JSON limits", () => {
  function deep(depth: number): unknown {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = { d: v };
    return v;
  }

  it('uses the service listener defaults', () => {
    expect(DEFAULT_REQUEST_LIMITS).toEqual({ maxJsonDepth: 500, maxJsonStringValueLength: 1_048_576, maxJsonObjectEntryCount: 10_000, maxJsonArrayElementCount: 10_000, maxJsonToken: 500_000, maxRequestSize: 33_554_432 });
  });

  it('KV data nested 3,000 and 20,000 deep is refused with a 400 before any handler; the world still hashes and saves', () => {
    const { w, token } = perfPrimary();
    for (const depth of [3_000, 20_000]) {
      const r = refused(w, 'east', { method: 'POST', path: 'secret/data/deep', body: { data: deep(depth) }, token });
      expect(errorsOf(r)[0]).toMatch(/max_json_depth/);
    }
    // Exactly at the bound (500 nested objects: the body, `data` and 498 more): accepted, and hashed and saved.
    expect(w.request('east', { method: 'POST', path: 'secret/data/deep', body: { data: deep(499) }, token }).status).toBe(200);
    refused(w, 'east', { method: 'POST', path: 'secret/data/deep', body: { data: deep(500) }, token });
    expect(w.stateHash()).toMatch(/^[0-9a-f]{64}$/);
    expect(toJsonl(w.log).length).toBeGreaterThan(0);
  });

  it('a string over 1 MiB, an object over 10,000 entries, an array over 10,000 elements and a body over 32 MiB are refused', () => {
    const { w, token } = perfPrimary();
    const wide: Record<string, number> = {};
    for (let i = 0; i <= 10_000; i++) wide[`k${i}`] = i;
    const cases: [unknown, RegExp][] = [
      [{ data: { v: 'x'.repeat(1_048_577) } }, /max_json_string_value_length/],
      [{ data: wide }, /max_json_object_entry_count/],
      [{ data: { list: new Array(10_001).fill(0) } }, /max_json_array_element_count/],
      [{ data: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, 'y'.repeat(1_000_000)])) }, /max_request_size/],
      [{ data: { n: Number.NaN } }, /not JSON/],
      [{ data: { f: () => 1 } }, /not JSON/],
    ];
    for (const [body, why] of cases) expect(errorsOf(refused(w, 'east', { method: 'POST', path: 'secret/data/big', body, token }))[0]).toMatch(why);
    // Just under the bounds: stored.
    expect(w.request('east', { method: 'POST', path: 'secret/data/big', body: { data: { v: 'x'.repeat(1_048_576), list: new Array(10_000).fill(0) } }, token }).status).toBe(200);
  });

  it('the bounds are a world option, the service defaults otherwise', () => {
    const w = World.create({ east: {} }, { seed: 1, requestLimits: { maxJsonDepth: 3 } });
    const token = w.tokenNamed('east', 'root')!;
    expect(w.request('east', { method: 'POST', path: 'secret/data/a', body: { data: { x: 1 } }, token }).status).toBe(200);
    expect(w.request('east', { method: 'POST', path: 'secret/data/a', body: { data: { x: { y: 1 } } }, token }).status).toBe(200);
    expect(errorsOf(refused(w, 'east', { method: 'POST', path: 'secret/data/a', body: { data: { x: { y: { z: 1 } } } }, token }))[0]).toMatch(/deeper than 3/);
  });
});

