import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { CATALOG, PLUGINS, SHA, call, dataOf, pluginWorld } from './helpers.js';

const GVISOR = { oci_runtime: 'runsc', cgroup_parent: 'vault-plugins', cpu_nanos: 500_000_000, memory_bytes: 268_435_456, rootless: false };

describe('plugin runtime catalog: endpoints', () => {
  it('POST registers a container runtime and answers 204; GET returns its fields', () => {
    const w = pluginWorld();
    expect(call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR)).toEqual({ status: 204, body: null });
    expect(dataOf(call(w, 'GET', `${CATALOG}/container/gvisor`))).toEqual({ name: 'gvisor', type: 'container', ...GVISOR, rootless: false });
    // rootless is stored and read back.
    expect(call(w, 'POST', `${CATALOG}/container/rootless`, { ...GVISOR, rootless: true }).status).toBe(204);
    expect(dataOf(call(w, 'GET', `${CATALOG}/container/rootless`))).toMatchObject({ rootless: true });
  });

  it('every body field is optional: an empty oci_runtime (meaning runsc) reads back as given, limits 0 mean none', () => {
    const w = pluginWorld();
    expect(call(w, 'PUT', `${CATALOG}/container/plain`, {}).status).toBe(204);
    expect(dataOf(call(w, 'GET', `${CATALOG}/container/plain`))).toEqual({ name: 'plain', type: 'container', oci_runtime: '', cgroup_parent: '', cpu_nanos: 0, memory_bytes: 0, rootless: false });
  });

  it('POST on an existing runtime overwrites it (an upsert)', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    expect(call(w, 'POST', `${CATALOG}/container/gvisor`, { memory_bytes: 1024 }).status).toBe(204);
    expect(dataOf(call(w, 'GET', `${CATALOG}/container/gvisor`))).toEqual({ name: 'gvisor', type: 'container', oci_runtime: '', cgroup_parent: '', cpu_nanos: 0, memory_bytes: 1024, rootless: false });
  });

  it('LIST or GET of the catalog: data.runtimes sorted by name, and no keys', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/zeta`, {});
    call(w, 'POST', `${CATALOG}/container/alpha`, { cpu_nanos: 1 });
    const listed = call(w, 'LIST', CATALOG);
    expect(dataOf(listed)).toEqual({
      runtimes: [
        { name: 'alpha', type: 'container', oci_runtime: '', cgroup_parent: '', cpu_nanos: 1, memory_bytes: 0, rootless: false },
        { name: 'zeta', type: 'container', oci_runtime: '', cgroup_parent: '', cpu_nanos: 0, memory_bytes: 0, rootless: false },
      ],
    });
    expect(dataOf(call(w, 'GET', CATALOG))).toEqual(dataOf(listed));
    expect(dataOf(call(w, 'GET', `${CATALOG}?type=container`))).toEqual(dataOf(listed));
    expect(dataOf(call(w, 'GET', `${CATALOG}?list=true&type=container`))).toEqual(dataOf(listed));
  });

  it('an empty catalog: LIST is a 404 with an empty error list, a GET answers empty data', () => {
    const w = pluginWorld();
    expect(call(w, 'LIST', CATALOG)).toEqual({ status: 404, body: { errors: [] } });
    const read = call(w, 'GET', CATALOG);
    expect(read.status).toBe(200);
    expect(dataOf(read)).toEqual({});
  });

  it('DELETE removes a runtime and answers 204', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`)).toEqual({ status: 204, body: null });
    expect(call(w, 'LIST', CATALOG).status).toBe(404);
  });
});

describe('plugin runtime catalog: errors', () => {
  it('negative limits are refused with the service texts (0 is allowed)', () => {
    const w = pluginWorld();
    expect(call(w, 'POST', `${CATALOG}/container/x`, { cpu_nanos: -1 })).toEqual({ status: 400, body: { errors: ['runtime cpu in nanos cannot be negative'] } });
    expect(call(w, 'POST', `${CATALOG}/container/x`, { memory_bytes: -5 })).toEqual({ status: 400, body: { errors: ['runtime memory in bytes cannot be negative'] } });
    expect(call(w, 'POST', `${CATALOG}/container/x`, { cpu_nanos: 0, memory_bytes: 0, rootless: false }).status).toBe(204);
  });

  it('a type other than container does not match the URL pattern: 404 unsupported path', () => {
    const w = pluginWorld();
    for (const method of ['POST', 'GET', 'DELETE']) {
      expect(call(w, method, `${CATALOG}/vm/x`, {})).toEqual({ status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } });
    }
  });

  it('reading a runtime that is not registered: the catalog error, passed on as a 500', () => {
    const w = pluginWorld();
    expect(call(w, 'GET', `${CATALOG}/container/ghost`)).toEqual({
      status: 500,
      body: { errors: ['1 error occurred:\n\t* failed to retrieve container plugin runtime "ghost": plugin runtime not found\n\n'] },
    });
  });

  it('deleting a runtime that is not registered: plugin runtime not found, as a 500', () => {
    const w = pluginWorld();
    expect(call(w, 'DELETE', `${CATALOG}/container/ghost`)).toEqual({ status: 500, body: { errors: ['1 error occurred:\n\t* plugin runtime not found\n\n'] } });
  });

  it('deleting a runtime referenced by registered plugins is refused, naming them in storage order (type, then name)', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    for (const p of ['zz-plugin', 'aa-plugin']) expect(call(w, 'POST', `${PLUGINS}/secret/${p}`, { oci_image: `reg/${p}`, sha256: SHA, runtime: 'gvisor' }).status).toBe(204);
    expect(call(w, 'POST', `${PLUGINS}/auth/zz-auth`, { oci_image: 'reg/a', sha256: SHA, runtime: 'gvisor' }).status).toBe(204);
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`)).toEqual({
      status: 400,
      body: { errors: ['unable to delete "gvisor" runtime. Registered plugins=[zz-auth aa-plugin zz-plugin] are referencing it.'] },
    });
    call(w, 'DELETE', `${PLUGINS}/secret/aa-plugin`);
    call(w, 'DELETE', `${PLUGINS}/secret/zz-plugin`);
    call(w, 'DELETE', `${PLUGINS}/auth/zz-auth`);
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`).status).toBe(204);
  });
});

describe('plugin runtime catalog: who may call', () => {
  it('every endpoint needs sudo on top of the path capability', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    const denied = { status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } };
    expect(call(w, 'LIST', `${CATALOG}/`, undefined, 'nosudo')).toEqual(denied);
    expect(call(w, 'POST', `${CATALOG}/container/x`, {}, 'nosudo')).toEqual(denied);
    expect(call(w, 'GET', `${CATALOG}/container/gvisor`, undefined, 'nosudo')).toEqual(denied);
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`, undefined, 'nosudo')).toEqual(denied);
    expect(call(w, 'GET', `${CATALOG}/container/gvisor`, undefined, 'admin').status).toBe(200);
    expect(call(w, 'LIST', `${CATALOG}/`, undefined, 'admin').status).toBe(200);
  });

  it('sudo alone is not enough: the path capability is needed too', () => {
    const w = pluginWorld();
    expect(call(w, 'POST', `${CATALOG}/container/x`, {}, 'reader').status).toBe(403);
    expect(call(w, 'GET', `${CATALOG}/container/x`, undefined, 'reader').status).toBe(500);
  });

  it('served only in the root namespace (simulator wording for the refusal)', () => {
    const w = pluginWorld();
    expect(call(w, 'POST', `${CATALOG}/container/x`, {}, 'teamA', 'team-a')).toEqual({ status: 400, body: { errors: ['this endpoint can only be called from the root namespace'] } });
    expect(call(w, 'LIST', `${CATALOG}`, undefined, 'teamA', 'team-a').status).toBe(400);
  });

  it('needs no enterprise licence; a DR secondary refuses it like any client path', () => {
    const w = World.create({ east: {}, west: {} });
    const root = (c: string) => w.tokenNamed(c, 'root');
    expect(w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: root('east') }).status).toBe(200);
    const t = w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/secondary-token', body: { id: 'west' }, token: root('east') });
    expect(w.request('west', { method: 'POST', path: 'sys/replication/dr/secondary/enable', body: { token: (t.body as any).wrap_info.token }, token: root('west') }).status).toBe(200);
    expect(w.request('west', { method: 'LIST', path: CATALOG, token: root('east') })).toEqual({ status: 400, body: { errors: ['path disabled in replication DR secondary mode'] } });
  });

  it('a refused request appends nothing and leaves the state hash unchanged', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA, runtime: 'gvisor' });
    const hash = w.stateHash();
    const logged = w.log.length;
    for (const r of [
      call(w, 'POST', `${CATALOG}/container/x`, { cpu_nanos: -1 }),
      call(w, 'POST', `${CATALOG}/container/x`, {}, 'nosudo'),
      call(w, 'DELETE', `${CATALOG}/container/gvisor`),
      call(w, 'DELETE', `${CATALOG}/container/ghost`),
      call(w, 'POST', `${PLUGINS}/secret/q`, { oci_image: 'img', sha256: SHA, runtime: 'ghost' }),
      call(w, 'POST', `${PLUGINS}/secret/q`, { oci_image: 'img' }),
    ])
      expect(r.status).toBeGreaterThanOrEqual(400);
    expect(w.log.length).toBe(logged);
    expect(w.stateHash()).toBe(hash);
  });

  it('replay rebuilds the catalog from the log', () => {
    const w = pluginWorld();
    call(w, 'POST', `${CATALOG}/container/gvisor`, GVISOR);
    call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA, runtime: 'gvisor' });
    call(w, 'POST', `${CATALOG}/container/other`, {});
    call(w, 'DELETE', `${CATALOG}/container/other`);
    expect(w.log.map((e) => e.type).slice(1)).toEqual(['plugin-runtime-registered', 'plugin-registered', 'plugin-runtime-registered', 'plugin-runtime-deleted']);
    const replayed = World.replay(w.log);
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(replayed.state.clusters.named('east').plugins).toEqual(w.state.clusters.named('east').plugins);
  });
});
