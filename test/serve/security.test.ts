// `replsim serve` against a hostile web page, as a spawned process on loopback (bounded: one server,
// a few dozen requests): every listener refuses a foreign Host (DNS rebinding) and a foreign Origin
// (a cross-site request) with 403 before any handler; the control listener answers only with the
// session's secret beyond its health check; `replsim ctl` finds the secret as documented; a
// 40,000-character name costs nothing and the server lives on to write its files.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');
const dir = mkdtempSync(join(tmpdir(), 'replsim-security-'));
const runtime = join(dir, 'run');
const recordFile = join(dir, 'session.yaml');
const outDir = join(dir, 'out');
const env = { ...process.env, NO_COLOR: '1', XDG_RUNTIME_DIR: runtime, REPLSIM_CTL_SECRET: '', REPLSIM_CTL_SECRET_FILE: '' };

let child: ChildProcessWithoutNullStreams;
let out = '';
let exited: Promise<number | null>;
let urls: Record<string, string>;
let secret: string;

beforeAll(async () => {
  child = spawn(process.execPath, [BIN, 'serve', '--clusters', 'east,west', '--port', '0', '--clock', 'manual', '--allow-host', 'vault.test', '--record', recordFile, '--out', outDir], { env });
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replsim serve did not start in 60 s:\n${out}\n${err}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening (\{.*\})$/m);
      if (!m) return;
      clearTimeout(timer);
      urls = JSON.parse(m[1]);
      secret = out.match(/REPLSIM_CTL_SECRET=(\S+)/)![1];
      resolve();
    });
    void exited.then((code) => reject(new Error(`replsim serve exited (${code}):\n${out}\n${err}`)));
  });
}, 70_000);

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** One request with exactly these headers (fetch would not let a test set Host), on a connection of its own (no race with the server closing an idle one). */
function send(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(u.port), method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, timeout: 10_000, agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.end(opts.body);
  });
}

const auth = () => ({ Authorization: `Bearer ${secret}` });

function ctl(args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, 'ctl', ...args, '--addr', urls.control], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
}

describe('Host and Origin: every listener answers only requests that name it', () => {
  it('a foreign Host gets 403 with the reason on every listener, before any handler (DNS rebinding)', async () => {
    for (const [name, url] of Object.entries(urls)) {
      const path = name === 'control' ? '/v1/status' : '/v1/sys/health';
      const r = await send(url, { path, headers: { Host: 'attacker.example', ...auth() } });
      expect(r.status, name).toBe(403);
      expect(JSON.parse(r.text).errors[0]).toMatch(/Host "attacker\.example" is not this listener's address .*--allow-host/);
      // The same port under the attacker's name is refused too; the listener's own names pass.
      expect((await send(url, { path, headers: { Host: `attacker.example:${new URL(url).port}`, ...auth() } })).status, name).toBe(403);
      for (const host of ['127.0.0.1', 'localhost', '[::1]', 'vault.test']) expect((await send(url, { path, headers: { Host: `${host}:${new URL(url).port}`, ...auth() } })).status, `${name} ${host}`).toBe(200);
    }
  });

  it('a foreign Origin gets 403 on every listener, a simple cross-site POST of a step included, and the step does not run', async () => {
    for (const [name, url] of Object.entries(urls)) {
      const r = await send(url, { path: name === 'control' ? '/v1/status' : '/v1/sys/health', headers: { Origin: 'http://attacker.example', ...auth() } });
      expect(r.status, name).toBe(403);
      expect(JSON.parse(r.text).errors[0]).toMatch(/another origin, "http:\/\/attacker\.example"/);
      expect((await send(url, { path: '/v1/sys/health', headers: { Origin: 'null' } })).status, name).toBe(403);
      // A GET a page makes without an Origin (an <img>, a no-cors fetch) still says where it comes from.
      expect((await send(url, { path: '/v1/sys/health', headers: { 'Sec-Fetch-Site': 'cross-site' } })).status, name).toBe(403);
      expect((await send(url, { path: '/v1/health', headers: { 'Sec-Fetch-Site': 'none' } })).status, name).not.toBe(403);
    }
    const before = JSON.parse((await send(urls.control, { path: '/v1/status', headers: auth() })).text).steps;
    const step = await send(urls.control, { method: 'POST', path: '/v1/step', headers: { Origin: 'http://attacker.example', 'Content-Type': 'text/plain', ...auth() }, body: '{"crash": "east"}' });
    expect(step.status).toBe(403);
    const after = JSON.parse((await send(urls.control, { path: '/v1/status', headers: auth() })).text);
    expect(after.steps).toBe(before);
    expect(after.clusters.east.running).toBe(true);
    // A page of the listener's own origin may call it.
    expect((await send(urls.east, { path: '/v1/sys/health', headers: { Origin: urls.east } })).status).toBe(200);
  });

  it('an absolute-form request target is answered for the listener\'s own authority and refused for another', async () => {
    const port = new URL(urls.east).port;
    expect((await send(urls.east, { path: `http://127.0.0.1:${port}/v1/sys/health` })).status).toBe(200);
    expect((await send(urls.east, { path: `http://attacker.example:${port}/v1/sys/health` })).status).toBe(403);
  });
});

describe('the control listener needs the session secret', () => {
  it('without it, or with another, 401; the health check and the page without secrets stay open', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong' }, { Authorization: `Basic ${secret}` }] as Record<string, string>[]) {
      const r = await send(urls.control, { path: '/v1/status', headers });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.text).errors[0]).toMatch(/needs this session's secret/);
      expect((await send(urls.control, { method: 'POST', path: '/v1/step', headers, body: '{"wait": "1s"}' })).status).toBe(401);
      expect((await send(urls.control, { path: '/v1/scenario', headers })).status).toBe(401);
    }
    expect(await send(urls.control, { path: '/v1/health' })).toEqual({ status: 200, text: '{"ok":true}\n' });
    const page = await send(urls.control, { path: '/' });
    expect(page.status).toBe(200);
    const status = JSON.parse((await send(urls.control, { path: '/v1/status', headers: auth() })).text);
    expect(status.clusters.east.root_token).toMatch(/^hvs\./);
    for (const c of ['east', 'west']) {
      expect(page.text).not.toContain(status.clusters[c].root_token);
      for (const k of status.clusters[c].keys) expect(page.text).not.toContain(k);
    }
    expect(page.text).not.toContain(secret);
  });

  it('replsim ctl finds the secret in the owner-only file serve wrote, or in REPLSIM_CTL_SECRET, and refuses a file others can read', () => {
    const file = join(runtime, 'replsim', `control-${new URL(urls.control).port}.secret`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(runtime, 'replsim')).mode & 0o777).toBe(0o700);
    const byFile = ctl(['status']);
    expect(byFile.stderr).toBe('');
    expect(byFile.status).toBe(0);
    expect(JSON.parse(byFile.stdout).clusters.east.running).toBe(true);
    expect(ctl(['status'], { XDG_RUNTIME_DIR: join(dir, 'elsewhere'), REPLSIM_CTL_SECRET: secret }).status).toBe(0);
    const wrong = ctl(['status'], { REPLSIM_CTL_SECRET: 'not-the-secret' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/refused \(401\)/);
    const loose = join(dir, 'loose.secret');
    writeFileSync(loose, secret);
    chmodSync(loose, 0o644);
    const refused = ctl(['status', '--secret-file', loose]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/refusing to read the control secret: .*loose\.secret can be read by other users \(mode 644/);
  });
});

describe('a 40,000-character unknown name', () => {
  it('is answered with a short clear error on the control listener, and the server lives on', async () => {
    const long = 'x'.repeat(40_000);
    for (const step of [{ crash: long }, { [long]: 'east' }, { partition: ['east', long] }]) {
      const r = await send(urls.control, { method: 'POST', path: '/v1/step', headers: auth(), body: JSON.stringify(step) });
      expect(r.status).toBe(400);
      expect(r.text.length).toBeLessThan(2_000);
    }
    const crash = await send(urls.control, { method: 'POST', path: '/v1/step', headers: auth(), body: JSON.stringify({ crash: long }) });
    expect(JSON.parse(crash.text).errors[0]).toMatch(/unknown cluster "x+\.\.\.: the clusters are east, west/);
    expect((await send(urls.east, { path: '/v1/sys/health' })).status).toBe(200);
    expect((await send(urls.control, { method: 'POST', path: '/v1/step', headers: auth(), body: '{"wait": "1s"}' })).status).toBe(200);
  });
});

describe('stopping', () => {
  it('ctl stop writes the recording and the run files, and removes the secret file', async () => {
    const stop = ctl(['stop']);
    expect(stop.status).toBe(0);
    expect(await exited).toBe(0);
    expect(readFileSync(recordFile, 'utf8')).toContain('- wait: 1s');
    expect(existsSync(join(outDir, 'results.json'))).toBe(true);
    expect(existsSync(join(outDir, 'history.jsonl'))).toBe(true);
    expect(existsSync(join(runtime, 'replsim', `control-${new URL(urls.control).port}.secret`))).toBe(false);
  });
});

describe('--allow-host', () => {
  it('takes names and name:port, and refuses a URL or an empty name, naming it', async () => {
    const { serve, ServeError } = await import('../../src/serve/serve.js');
    await expect(serve({ clusters: ['east'], allowHosts: ['http://vault.test'] })).rejects.toThrow(ServeError);
    await expect(serve({ clusters: ['east'], allowHosts: ['http://vault.test'] })).rejects.toThrow(/--allow-host: "http:\/\/vault\.test" is not a host name/);
    await expect(serve({ clusters: ['east'], allowHosts: [''] })).rejects.toThrow(/--allow-host: an empty name/);
    const h = await serve({ clusters: ['east'], clock: 'manual', allowHosts: ['vault.test:9999'] });
    try {
      expect((await send(h.clusters.east.url, { path: '/v1/sys/health', headers: { Host: 'vault.test:9999' } })).status).toBe(200);
      expect((await send(h.clusters.east.url, { path: '/v1/sys/health', headers: { Host: `vault.test:${h.clusters.east.port}` } })).status).toBe(403);
    } finally {
      await h.stop();
    }
  });
});
