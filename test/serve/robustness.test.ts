// The listeners under bad input and load: malformed HTTP, bodies that are not JSON or too large,
// slow clients and many concurrent requests get the service's error answers or a closed connection,
// never a crash; refused requests leave the world untouched; concurrent requests are applied one at a
// time, so the log stays a total order that replays, and the recording replays to the same world.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { DEFAULT_LIMITS } from '../../src/serve/http-face.js';
import { serve, type ServeHandle, type ServeOptions } from '../../src/serve/serve.js';
import { World } from '../../src/world.js';

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

async function start(options: ServeOptions = {}): Promise<ServeHandle> {
  handle = await serve({ clusters: ['east', 'west'], clock: 'manual', ...options });
  return handle;
}

/** Sends raw bytes on a fresh connection; resolves with everything received once the server closes it. */
function raw(port: number, bytes: string, endAfterWrite = false, encoding: BufferEncoding = 'utf8'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d));
    socket.on('close', () => resolve(got));
    socket.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(got) : reject(e)));
    socket.write(bytes, encoding, () => {
      if (endAfterWrite) socket.end();
    });
  });
}

/** The control listener's secret, as a header. */
function ctl(h: ServeHandle): Record<string, string> {
  return { Authorization: `Bearer ${h.control.secret}` };
}

async function health(h: ServeHandle): Promise<number> {
  return (await fetch(`${h.clusters.east.url}/v1/sys/health`)).status;
}

describe('the HTTP face answers malformed requests as the service does, and lives on', () => {
  it('garbage instead of HTTP gets 400 and a closed connection', async () => {
    const h = await start();
    const got = await raw(h.clusters.east.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(await health(h)).toBe(200);
  });

  it('a body that is not JSON gets 400 "error parsing JSON" and changes nothing', async () => {
    const h = await start();
    const before = h.world.log.length;
    const res = await fetch(`${h.clusters.east.url}/v1/secret/data/x`, { method: 'POST', body: '{"data": ', headers: { 'X-Vault-Token': h.world.tokenNamed('east', 'root')! } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: ['error parsing JSON'] });
    expect(h.world.log.length).toBe(before);
  });

  it('a path outside /v1/ is 404 and an unknown method 405, with the empty error list', async () => {
    const h = await start();
    const a = await fetch(`${h.clusters.east.url}/sys/health`);
    expect([a.status, await a.json()]).toEqual([404, { errors: [] }]);
    const b = await fetch(`${h.clusters.east.url}/v1/sys/health`, { method: 'OPTIONS' });
    expect([b.status, await b.json()]).toEqual([405, { errors: [] }]);
    const c = await fetch(`${h.clusters.east.url}/v1/secret/metadata/?list=maybe`);
    expect(c.status).toBe(400);
  });

  it('X-Vault-Token, Authorization: Bearer, X-Vault-Namespace and ?list=true reach the world', async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    expect((await fetch(`${h.clusters.east.url}/v1/secret/data/app/one`, { method: 'POST', body: '{"data":{"a":1}}', headers: { Authorization: `Bearer ${root}` } })).status).toBe(200);
    const listed = await fetch(`${h.clusters.east.url}/v1/secret/metadata/app?list=true`, { headers: { 'X-Vault-Token': root } });
    expect((await listed.json()).data.keys).toEqual(['one']);
    // The LIST method itself (Node's parser knows no LIST; list-method.ts rewrites it).
    const viaMethod = await raw(
      h.clusters.east.port,
      `LIST /v1/secret/metadata/app HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\nConnection: close\r\nX-Vault-Token: ${root}\r\n\r\n`,
    );
    expect(viaMethod).toMatch(/^HTTP\/1\.1 200 /);
    expect(viaMethod).toContain('"keys":["one"]');
    const ns = await fetch(`${h.clusters.east.url}/v1/secret/data/app/one`, { headers: { 'X-Vault-Token': root, 'X-Vault-Namespace': 'nowhere/' } });
    expect(ns.status).toBe(404);
    const head = await fetch(`${h.clusters.east.url}/v1/sys/health`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('an empty X-Vault-Token beside Authorization: Bearer uses the Bearer token, as the service does; another scheme is no token', async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    const write = (headers: Record<string, string>) => fetch(`${h.clusters.east.url}/v1/secret/data/k`, { method: 'POST', body: '{"data":{"a":1}}', headers }).then((r) => r.status);
    expect(await write({ 'X-Vault-Token': '', Authorization: `Bearer ${root}` })).toBe(200);
    expect(await write({ Authorization: `Bearer   ${root}  ` })).toBe(200);
    expect(await write({ Authorization: `bearer ${root}` })).toBe(403);
    expect(await write({ 'X-Vault-Token': 'not-a-token', Authorization: `Bearer ${root}` })).toBe(403);
  });

  it('a GET pipelined before a LIST (and a POST with a body, plain or chunked) are all answered, in order', async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    const host = `Host: 127.0.0.1:${h.clusters.east.port}\r\nX-Vault-Token: ${root}\r\n`;
    const body = '{"data":{"a":1}}';
    const chunked = '{"data":{"b":2}}';
    const got = await raw(
      h.clusters.east.port,
      `POST /v1/secret/data/app/one HTTP/1.1\r\n${host}Content-Length: ${body.length}\r\n\r\n${body}` +
        `POST /v1/secret/data/app/two HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n${chunked.length.toString(16)}\r\n${chunked}\r\n0\r\n\r\n` +
        `GET /v1/sys/health HTTP/1.1\r\n${host}\r\n` +
        `LIST /v1/secret/metadata/app HTTP/1.1\r\n${host}Connection: close\r\n\r\n`,
    );
    const statuses = [...got.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(got).toContain('"keys":["one","two"]');
  });

  it('raw UTF-8 in a path (what curl sends for café) names the same key as its percent-escapes', async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    const head = `HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\nX-Vault-Token: ${root}\r\nConnection: close\r\n`;
    const body = '{"data":{"v":"au lait"}}';
    const wrote = await raw(h.clusters.east.port, Buffer.concat([Buffer.from('POST /v1/secret/data/caf'), Buffer.from('é', 'utf8'), Buffer.from(` ${head}Content-Length: ${body.length}\r\n\r\n${body}`)]).toString('latin1'), false, 'latin1');
    expect(wrote).toMatch(/^HTTP\/1\.1 200 /);
    const read = await fetch(`${h.clusters.east.url}/v1/secret/data/caf%C3%A9`, { headers: { 'X-Vault-Token': root } });
    expect((await read.json()).data.data).toEqual({ v: 'au lait' });
    const listed = await raw(h.clusters.east.port, Buffer.concat([Buffer.from('LIST /v1/secret/metadata/?x=ü'.replace('ü', ''), 'latin1'), Buffer.from('ü', 'utf8'), Buffer.from(` ${head}\r\n`)]).toString('latin1'), false, 'latin1');
    expect(listed).toMatch(/^HTTP\/1\.1 200 /);
    expect(listed).toContain('"keys":["café"]');
  });

  it('X-Vault-Wrap-TTL answers 501: response wrapping is not simulated', async () => {
    const h = await start();
    const res = await fetch(`${h.clusters.east.url}/v1/sys/health`, { headers: { 'X-Vault-Wrap-TTL': '60s' } });
    expect(res.status).toBe(501);
    expect((await res.json()).errors[0]).toMatch(/not implemented in replsim/);
  });
});

describe('request size: the listener default max_request_size is 32 MiB', () => {
  it('is 33554432 bytes by default', () => {
    expect(DEFAULT_LIMITS.maxRequestSize).toBe(33554432);
  });

  it('a declared Content-Length over the limit gets 413 at once and the connection is closed', async () => {
    const h = await start();
    const got = await raw(h.clusters.east.port, `POST /v1/secret/data/x HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\nContent-Type: application/json\r\nContent-Length: ${32 * 1024 * 1024 + 1}\r\n\r\n{"data":`);
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toContain('{"errors":["error parsing JSON"]}');
    expect(await health(h)).toBe(200);
  });

  it('a chunked body (no Content-Length) that grows past the limit gets 413 and changes nothing', async () => {
    const h = await start({ limits: { maxRequestSize: 1024 } });
    const before = h.world.log.length;
    const chunk = 'x'.repeat(800);
    const body = `{"data":{"blob":"${chunk}${chunk}"}}`;
    const got = await raw(
      h.clusters.east.port,
      `POST /v1/secret/data/big HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\nX-Vault-Token: ${h.world.tokenNamed('east', 'root')}\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(h.world.log.length).toBe(before);
    expect(await health(h)).toBe(200);
  });
});

describe('slow clients are cut off by the listener timeouts', () => {
  it('a client that never finishes its headers has its connection closed', async () => {
    const h = await start({ limits: { headersTimeoutMs: 200, requestTimeoutMs: 300 } });
    const got = await raw(h.clusters.east.port, `GET /v1/sys/health HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\n`);
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(await health(h)).toBe(200);
  });

  it('a client that stops sending its body has its connection closed', async () => {
    const h = await start({ limits: { headersTimeoutMs: 200, requestTimeoutMs: 300 } });
    const before = h.world.log.length;
    await raw(h.clusters.east.port, `POST /v1/secret/data/x HTTP/1.1\r\nHost: 127.0.0.1:${h.clusters.east.port}\r\nContent-Length: 100\r\n\r\n{"data":`);
    expect(h.world.log.length).toBe(before);
    expect(await health(h)).toBe(200);
  });
});

describe('many concurrent requests are applied one at a time', () => {
  it('500 concurrent writes all succeed; the log replays and the recording replays to the same world', async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    const n = 500;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        fetch(`${h.clusters.east.url}/v1/secret/data/k${i}`, { method: 'POST', body: JSON.stringify({ data: { i } }), headers: { 'X-Vault-Token': root } }).then((r) => r.status),
      ),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(n);
    const writes = h.world.log.filter((e) => e.type === 'kv-written');
    expect(writes).toHaveLength(n);
    // Each write is its own event, in one total order.
    expect(new Set(writes.map((e) => (e as { key: string }).key)).size).toBe(n);
    const result = await h.stop();
    expect(World.replay(h.world.log).stateHash()).toBe(result.stateHash);
    const loaded = loadScenario(h.session.scenarioYaml(), 'recording.yaml');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors.slice(0, 3)));
    const replay = await runScenario(loaded.scenario);
    expect(replay.verdict).toBe('valid');
    expect(replay.stateHash).toBe(result.stateHash);
  });
});

describe('listener addresses in bodies', () => {
  it("a listener's URL in a body is read as that cluster's simulated address (primary_api_addr)", async () => {
    const h = await start();
    const root = h.world.tokenNamed('east', 'root')!;
    const post = (url: string, path: string, body: unknown, token?: string) =>
      fetch(`${url}/v1/${path}`, { method: 'POST', body: JSON.stringify(body), headers: token ? { 'X-Vault-Token': token } : {} }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
    expect((await post(h.clusters.east.url, 'sys/replication/dr/primary/enable', {}, root)).status).toBe(200);
    const token = (await post(h.clusters.east.url, 'sys/replication/dr/primary/secondary-token', { id: 'west' }, root)).body.wrap_info.token;
    const enabled = await post(h.clusters.west.url, 'sys/replication/dr/secondary/enable', { token, primary_api_addr: `${h.clusters.east.url}/` }, h.world.tokenNamed('west', 'root'));
    expect(enabled.status).toBe(200);
    expect(h.world.state.clusters.named('west').replication.dr.primaryApiAddr).toBe('https://east.replsim.test:8200');
    await h.stop();
    expect(h.session.scenarioYaml()).toContain('primary_api_addr: ${east.api_addr}');
  });
});

describe('control listener', () => {
  it('refuses a step it does not know, a bad cluster, or a request step, naming the cause; changes nothing', async () => {
    const h = await start();
    const before = h.world.log.length;
    const post = (b: string) => fetch(`${h.control.url}/v1/step`, { method: 'POST', body: b, headers: ctl(h) }).then(async (r) => [r.status, (await r.json()).errors?.[0]]);
    expect(await post('{"crash": "north"}')).toEqual([400, expect.stringContaining('north')]);
    expect(await post('{"request": "GET sys/health", "on": "east"}')).toEqual([400, expect.stringContaining('requests go to the cluster listeners')]);
    expect(await post('{"wait": "soon"}')).toEqual([400, expect.stringContaining('wait')]);
    expect(await post('[1')).toEqual([400, 'error parsing JSON']);
    expect(h.world.log.length).toBe(before);
  });

  it('wait, partition, heal, crash and restart move the world and are recorded as steps', async () => {
    const h = await start();
    const post = (b: unknown) => fetch(`${h.control.url}/v1/step`, { method: 'POST', body: JSON.stringify(b), headers: ctl(h) }).then((r) => r.status);
    expect(await post({ wait: '10s' })).toBe(200);
    expect(h.world.now).toBe(10_000);
    expect(await post({ partition: ['east', 'west'] })).toBe(200);
    expect(await post({ heal: 'all' })).toBe(200);
    expect(await post({ crash: 'west' })).toBe(200);
    expect((await fetch(`${h.clusters.west.url}/v1/sys/health`)).status).toBe(503);
    expect(await post({ restart: 'west' })).toBe(200);
    const status = await (await fetch(`${h.control.url}/v1/status`, { headers: ctl(h) })).json();
    expect(status).toMatchObject({ now_ms: 10_000, clock: 'manual', clusters: { west: { running: true, dr: 'disabled' } } });
    const page = await (await fetch(`${h.control.url}/`)).text();
    expect(page).toMatch(/^west +http:\/\/127\.0\.0\.1:\d+ +yes +disabled/m);
    expect(page).not.toContain(h.world.tokenNamed('east', 'root')!);
    const yaml = await (await fetch(`${h.control.url}/v1/scenario`, { headers: ctl(h) })).text();
    expect(yaml).toMatch(/- wait: 10s\n {2}- partition:\n/);
    expect(yaml).toContain('- crash: west');
  });
});

describe('wall-clock mode', () => {
  it('the virtual clock follows real time (times --speed) and the catch-up is recorded as a wait', async () => {
    const h = await start({ clock: 'wall', speed: 1000 });
    await new Promise((r) => setTimeout(r, 30));
    await health(h);
    expect(h.world.now).toBeGreaterThan(0);
    const result = await h.stop();
    const yaml = h.session.scenarioYaml();
    expect(yaml).toMatch(/- wait: /);
    // The recording replays without any clock: the waits carry the time.
    const loaded = loadScenario(yaml, 'recording.yaml');
    if (!loaded.ok) throw new Error(loaded.errors[0].message);
    expect((await runScenario(loaded.scenario)).stateHash).toBe(result.stateHash);
  });
});
