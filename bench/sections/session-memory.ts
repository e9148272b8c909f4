// 10. Memory of long sessions and long runs (issue 28): what a serving session keeps per 1,000
// requests once warmed up, and the peak RSS of a run of many writes against the data its world
// holds at the end. Requests go through the session in-process (the HTTP face adds nothing kept).
// Memory after a full collection (--expose-gc): heap used, and the resident set.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit, type Row } from '../lib/result.js';
import { serve, writeSessionFiles } from '../../src/serve/serve.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';

const quick = process.env.BENCH_QUICK === '1';
const here = dirname(fileURLToPath(import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => Math.round(bytes / 1e4) / 100;

function settled(): { heap: number; rss: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** Per 1,000 requests after a warm-up of 1,000: small KV writes, to new keys or rewriting 100 keys. */
async function sessionGrowth(keys: 'new' | 'rewrite', total: number): Promise<{ heapPer1000: number; rssPer1000: number; start: number; end: number }> {
  const h = await serve({ clusters: ['east', 'west'], clock: 'manual' });
  const token = h.world.tokenNamed('east', 'root')!;
  let warm = settled();
  for (let i = 0; i < total; i++) {
    if (i === 1000) warm = settled();
    const key = keys === 'new' ? `k${i}` : `k${i % 100}`;
    await h.session.request('east', { method: 'POST', path: `secret/data/${key}`, body: { data: { v: i } }, token });
  }
  const end = settled();
  await h.stop();
  const per = (total - 1000) / 1000;
  return { heapPer1000: (end.heap - warm.heap) / per, rssPer1000: (end.rss - warm.rss) / per, start: warm.rss, end: end.rss };
}

/**
 * A run of `n` writes to new keys, in a process of its own (bench/lib/run-peak.ts): its peak RSS
 * against the canonical size of its final state. `runner`: runScenario on a scenario built in
 * memory, with V8's own heap settings (the library sets none); `runner-cli-heap`: the same with the
 * settings the CLI's entry makes (src/cli/heap.ts); `cli`: `node bin/replsim.js run FILE --out DIR
 * --quiet` on a YAML file (loading, narration off, files), the process a user starts, against the
 * same command on a one-step file. The two runner rows start from a process that loaded the sources
 * through tsx, whose heap the run partly reuses: they read lower than a fresh process would.
 */
function bigRun(mode: 'runner' | 'runner-cli-heap' | 'cli', n: number): { peakRss: number; live: number; baseRss: number; ms: number; from?: string } {
  const args = mode === 'runner-cli-heap' ? ['runner', String(n), 'cli-heap'] : [mode, String(n)];
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, '..', 'lib', 'run-peak.ts'), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as { peakRss: number; live: number; baseRss: number; ms: number; from?: string };
}

function call(agent: Agent, port: number, method: string, path: string, token: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'X-Vault-Token': token };
    if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    const req = request({ host: '127.0.0.1', port, path, method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A session of `n` requests over loopback HTTP (4 in flight; three writes to 500 keys for each DR
 * status read), recorded with --record, against the replay of its recording by the scenario runner
 * (what `replsim run FILE` does, without the CLI's start-up): wall time of each, in this process.
 */
async function recordingReplay(n: number): Promise<{ sessionMs: number; replayMs: number; steps: number; bytes: number; same: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'replsim-bench-recording-'));
  const file = join(dir, 'session.yaml');
  const h = await serve({ clusters: ['east', 'west'], clock: 'manual', record: file });
  const token = h.world.tokenNamed('east', 'root')!;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const port = h.clusters.east.port;
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < n; i = next++) {
        const status = i % 4 === 3 ? await call(agent, port, 'GET', '/v1/sys/replication/dr/status', token) : await call(agent, port, 'POST', `/v1/secret/data/k${i % 500}`, token, `{"data":{"i":${i}}}`);
        if (status !== 200) failed++;
      }
    }),
  );
  agent.destroy();
  const result = await h.stop();
  writeSessionFiles(h, result, {});
  const sessionMs = performance.now() - t0;
  if (failed) throw new Error(`${failed} of ${n} requests failed`);
  const text = readFileSync(file, 'utf8');
  const t1 = performance.now();
  const loaded = loadScenario(text, file);
  if (!loaded.ok) throw new Error('the recording does not load');
  const replayed = await runScenario(loaded.scenario);
  const replayMs = performance.now() - t1;
  rmSync(dir, { recursive: true, force: true });
  return { sessionMs, replayMs, steps: replayed.steps.length, bytes: text.length, same: replayed.stateHash === result.stateHash && replayed.verdict === 'valid' };
}

const rows: Row[] = [];
{
  const n = quick ? 3000 : 20_000;
  const r = await recordingReplay(n);
  rows.push({
    id: 'recording-replay',
    section: 10,
    title: `replay of a ${n.toLocaleString('en-US')}-request serve session's recording against the session (wall)`,
    replsim: { name: 'replay', value: Math.round(r.replayMs), unit: 'ms' },
    baseline: { name: 'session', value: Math.round(r.sessionMs), unit: 'ms' },
    ratio: r.replayMs / r.sessionMs,
    goal: 'replay no longer than the session',
    met: r.same && r.replayMs <= r.sessionMs,
    note: `${r.steps} steps, ${mb(r.bytes)} MB of YAML; the replay ${r.same ? 'reaches the session\'s state hash, valid' : 'DOES NOT reach the session\'s state hash'}`,
    detail: r,
  });
}
const total = quick ? 3000 : 6000;
for (const keys of ['rewrite', 'new'] as const) {
  const g = await sessionGrowth(keys, total);
  rows.push({
    id: `session-memory-${keys}`,
    section: 10,
    title: `serve session: memory per 1,000 small KV writes (${keys === 'new' ? 'each to a new key' : 'rewriting 100 keys'}), after 1,000 of warm-up`,
    replsim: { name: 'heap per 1,000 requests', value: mb(g.heapPer1000), unit: 'MB' },
    goal: 'flat after warm-up, <= 1 MB per 1,000 requests',
    met: g.heapPer1000 <= 1e6,
    note: `RSS ${mb(g.start)} -> ${mb(g.end)} MB over ${total - 1000} requests (${mb(g.rssPer1000)} MB per 1,000); kept per request: its events, its step record deflated (src/scenario/step-spill.ts), its recording step`,
    detail: g,
  });
}
const n = quick ? 10_000 : 100_000;
const runTitles = {
  runner: `a ${n.toLocaleString('en-US')}-write run (runScenario, the scenario built in memory), V8's own heap settings: peak RSS against its live data`,
  'runner-cli-heap': `the same run with the CLI's heap settings (src/cli/heap.ts): peak RSS against its live data`,
  cli: `replsim run of a ${n.toLocaleString('en-US')}-write YAML file with --out (node bin/replsim.js; above a one-step run): peak RSS against its live data`,
};
const runIds = { runner: 'run-peak-rss', 'runner-cli-heap': 'run-peak-rss-cli-heap', cli: 'run-cli-peak-rss' };
for (const mode of ['runner', 'runner-cli-heap', 'cli'] as const) {
  const r = bigRun(mode, n);
  const ratio = (r.peakRss - r.baseRss) / r.live;
  rows.push({
    id: runIds[mode],
    section: 10,
    title: runTitles[mode],
    replsim: { name: 'peak RSS above the start', value: mb(r.peakRss - r.baseRss), unit: 'MB' },
    goal: 'peak RSS <= 3x live data + a constant',
    met: r.peakRss - r.baseRss <= 3 * r.live + 64e6,
    note: `live data (canonical JSON of the final state) ${mb(r.live)} MB; ${ratio.toFixed(1)}x; took ${Math.round(r.ms)} ms; a process of its own${r.from ? `, ${r.from}` : ''}`,
    detail: r,
  });
}
emit(rows);
