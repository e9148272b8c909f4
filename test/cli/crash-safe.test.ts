// Files whole or clearly not, under kills (spawned processes, each bounded in time):
// - `run --out` killed with SIGKILL at moments spread over its run leaves a history whose lines are
//   the first lines of the complete run's history, and never a results.json, report or sequence
//   without the complete history of the same run;
// - `serve --out` killed with SIGKILL after N requests leaves all N requests' events, `replay`
//   calls the history incomplete and rebuilds them, and `serve --resume` goes on on the same ports
//   with the recording continued, which replays to the session's state hash;
// - SIGHUP stops a session as SIGTERM does; a third signal exits at once, saying what was not written;
// - a folder whose files come from different runs is reported by `replay` and by `run`.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { SimEvent } from '../../src/areas/core/events.js';
import { describe, expect, it } from 'vitest';
import { readHistory } from '../../src/kernel/persist.js';
import { mixedRuns } from '../../src/report/run-id.js';
import { isKnownEventType, World } from '../../src/world.js';
import { BIN, ROOT, scratch } from './helpers.js';

const s = scratch('replsim-crash-');

/** A scenario of `n` KV writes, long enough for kills to land in the middle of its run. */
function writesScenario(n: number, seed = 1): string {
  let text = `name: many writes\nseed: ${seed}\nclusters:\n  east: {}\n  west: {}\nsteps:\n  - request: POST sys/replication/dr/primary/enable\n    on: east\n`;
  for (let i = 0; i < n; i++) text += `  - request: POST secret/data/k${i}\n    on: east\n    body: { data: { n: ${i} } }\n`;
  return text;
}

function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: undefined }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** Waits (polling every 5 ms, at most `ms`) until `ready()` holds; false when it never did. */
async function until(ready: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (ready()) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return ready();
}

/** `replsim ARGS` to its end without blocking the test worker: exit code and output. */
async function replsim(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = start(args);
  const code = await p.exited;
  return { code, out: p.out(), err: p.err() };
}

const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

describe('run --out killed at moments spread over its run', () => {
  it('leaves the first lines of the complete history, and no other file unless the history is complete and of the same run', async () => {
    const scenario = s.file('writes.yaml', writesScenario(600));
    const complete = join(s.dir, 'complete');
    expect((await replsim(['run', scenario, '--out', complete, '-q'])).code).toBe(0);
    const full = readFileSync(join(complete, 'history.jsonl'), 'utf8').split('\n').slice(0, -1);
    // Kills after the history reached these many lines (the last one may come after the run ended).
    for (const at of [1, 150, 400, full.length]) {
      const out = join(s.dir, `killed-${at}`);
      mkdirSync(out, { recursive: true });
      // A previous run's results and pictures in the folder: the new run must not leave them beside its own.
      for (const name of ['results.json', 'report.html', 'sequence.md']) cpSync(join(complete, name), join(out, name));
      const p = start(['run', scenario, '--out', out, '-q', '--seed', '2']);
      const history = join(out, 'history.jsonl');
      await until(() => lineCount(history) >= at, 60_000);
      p.child.kill('SIGKILL');
      await p.exited;
      const lines = readFileSync(history, 'utf8').split('\n');
      const read = readHistory<SimEvent>(history, isKnownEventType, { incomplete: true });
      const closed = read.end !== null;
      // Seed 2's run: its history is checked against itself (whole lines, chained, a replayable prefix).
      expect(World.replay(read).log.length).toBe(read.events.length);
      expect(lines.length).toBeGreaterThan(1);
      for (const name of ['results.json', 'report.html', 'sequence.md']) {
        if (existsSync(join(out, name))) expect(closed, `${name} written beside a history without its closing line (kill at ${at})`).toBe(true);
      }
      expect(mixedRuns(out)).toEqual([]);
    }
  }, 240_000);

  it('the killed history is a prefix of the complete one (same seed): every committed event, in order', async () => {
    const scenario = s.file('writes-prefix.yaml', writesScenario(600));
    const complete = join(s.dir, 'prefix-complete');
    expect((await replsim(['run', scenario, '--out', complete, '-q'])).code).toBe(0);
    const full = readFileSync(join(complete, 'history.jsonl'), 'utf8').split('\n').slice(0, -1);
    const out = join(s.dir, 'prefix-killed');
    const p = start(['run', scenario, '--out', out, '-q']);
    await until(() => lineCount(join(out, 'history.jsonl')) >= 200, 60_000);
    p.child.kill('SIGKILL');
    await p.exited;
    const killed = readFileSync(join(out, 'history.jsonl'), 'utf8').split('\n').slice(0, -1);
    expect(killed.length).toBeGreaterThanOrEqual(200);
    expect(killed).toEqual(full.slice(0, killed.length));
    const replay = await replsim(['replay', join(out, 'history.jsonl')]);
    if (killed.length < full.length) {
      expect(replay.code).toBe(1);
      expect(replay.err).toMatch(new RegExp(`incomplete: ${killed.length} events, no closing line`));
    }
  }, 240_000);
});

/** Starts `replsim serve` on free ports and resolves once it listens. */
async function startServe(args: string[]) {
  const p = start(['serve', '--port', '0', '--clock', 'manual', ...args]);
  const listening = await until(() => /^listening /m.test(p.out()), 60_000);
  if (!listening) throw new Error(`serve did not start: ${p.err()}`);
  const urls = JSON.parse(/^listening (.*)$/m.exec(p.out())![1]) as Record<string, string>;
  // The control listener answers only with this session's secret, which serve prints at start.
  const secret = /REPLSIM_CTL_SECRET=(\S+)/.exec(p.out())![1];
  const status = (await (await fetch(`${urls.control}/v1/status`, { headers: { Authorization: `Bearer ${secret}` } })).json()) as { clusters: Record<string, { root_token: string }> };
  return { ...p, urls, root: status.clusters.east.root_token };
}

async function write(url: string, token: string, key: string, value: unknown): Promise<number> {
  const res = await fetch(`${url}/v1/secret/data/${key}`, { method: 'POST', headers: { 'X-Vault-Token': token }, body: JSON.stringify({ data: { value } }) });
  await res.arrayBuffer();
  return res.status;
}

describe('serve --out under kills', () => {
  it('SIGKILL after N requests: the history holds all N, replay calls it incomplete, --resume goes on where it stopped', async () => {
    const out = join(s.dir, 'session');
    const record = join(s.dir, 'session.yaml');
    const first = await startServe(['--out', out, '--record', record]);
    const N = 25;
    for (let i = 0; i < N; i++) expect(await write(first.urls.east, first.root, `k${i}`, i)).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    // The recording was written as the requests came: all N are in it, and it says it is unfinished.
    const partial = readFileSync(record, 'utf8');
    expect(partial.split('\n')[0]).toMatch(/^# replsim-recording\/1: in progress/);
    for (let i = 0; i < N; i++) expect(partial).toContain(`request: POST secret/data/k${i}\n`);
    const refused = await replsim(['run', record, '-q']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/the recording was still being written here: its session ended without stopping/);

    const history = readHistory<SimEvent>(join(out, 'history.jsonl'), isKnownEventType, { incomplete: true });
    expect(history.end).toBeNull();
    const world = World.replay(history);
    const east = world.state.clusters.named('east');
    for (let i = 0; i < N; i++) expect(JSON.stringify(east.storage.kv)).toContain(`"value":${i}`);
    const replay = await replsim(['replay', join(out, 'history.jsonl')]);
    expect(replay.code).toBe(1);
    expect(replay.err).toMatch(/incomplete: \d+ events, no closing line/);
    expect(replay.out.trim()).toBe(world.stateHash());

    const second = await startServe(['--resume', out]);
    expect(second.urls).toEqual(first.urls);
    expect(second.out()).toMatch(new RegExp(`resumed .*: ${N} steps`));
    const read = await fetch(`${second.urls.east}/v1/secret/data/k${N - 1}`, { headers: { 'X-Vault-Token': second.root } });
    expect(((await read.json()) as { data: { data: unknown } }).data.data).toEqual({ value: N - 1 });
    expect(await write(second.urls.east, second.root, 'after', 'resumed')).toBe(200);
    second.child.kill('SIGHUP');
    expect(await second.exited).toBe(0);
    expect(second.out()).toMatch(/SIGHUP: stopping/);

    const done = await replsim(['replay', join(out, 'history.jsonl')]);
    expect(done.code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { stateHash: string; steps: unknown[] };
    expect(done.out.trim()).toBe(results.stateHash);
    expect(results.steps.length).toBe(N + 2);
    // The recording holds the requests of both halves, and replays to the session's state.
    const rerun = await replsim(['run', record, '--out', join(s.dir, 'session-rerun'), '-q']);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(readFileSync(join(s.dir, 'session-rerun', 'results.json'), 'utf8')).stateHash).toBe(results.stateHash);
  }, 240_000);

  it('a third signal while stopping exits at once and says what was not written; the history keeps every committed event', async () => {
    const out = join(s.dir, 'third');
    const p = await startServe(['--out', out, '--record', join(s.dir, 'third.yaml')]);
    for (let i = 0; i < 5; i++) expect(await write(p.urls.east, p.root, `k${i}`, i)).toBe(200);
    // A client sending half a request keeps the stop waiting (up to 5 s) for it.
    const port = Number(new URL(p.urls.east).port);
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /v1/secret/data/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    socket.on('error', () => undefined);
    p.child.kill('SIGTERM');
    await until(() => /SIGTERM: stopping/.test(p.out()), 10_000);
    p.child.kill('SIGTERM');
    await until(() => /again: still stopping/.test(p.err()), 10_000);
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(2);
    socket.destroy();
    expect(p.err()).toMatch(/SIGINT a third time: exiting now; not written: .*third\.yaml, results\.json, report\.html, sequence\.md/);
    expect(p.err()).toMatch(/history\.jsonl holds the \d+ events committed, without its closing line/);
    const h = readHistory<SimEvent>(join(out, 'history.jsonl'), isKnownEventType, { incomplete: true });
    expect(h.end).toBeNull();
    expect(JSON.stringify(World.replay(h).state.clusters.named('east').storage.kv)).toContain('"value":4');
  }, 120_000);
});

describe('a folder mixing the files of different runs', () => {
  it('is reported by replay (exit 1) and by run, which replaces the files', async () => {
    const a = join(s.dir, 'mix-a');
    const b = join(s.dir, 'mix-b');
    const scenario = s.file('mix.yaml', writesScenario(3));
    expect((await replsim(['run', scenario, '--out', a, '-q'])).code).toBe(0);
    expect((await replsim(['run', scenario, '--out', b, '-q', '--seed', '9'])).code).toBe(0);
    // The case: results.json rewritten by another run, the previous history beside it.
    cpSync(join(b, 'results.json'), join(a, 'results.json'));
    const replay = await replsim(['replay', join(a, 'history.jsonl')]);
    expect(replay.code).toBe(1);
    expect(replay.err).toMatch(/the folder holds files of different runs: results\.json is of another run than history\.jsonl: seed 9/);
    const run = await replsim(['run', scenario, '--out', a, '-q']);
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/warning: .*mix-a held files of different runs \(results\.json is of another run/);
    expect((await replsim(['replay', join(a, 'history.jsonl')])).code).toBe(0);
    expect(mixedRuns(a)).toEqual([]);
  }, 120_000);
});
