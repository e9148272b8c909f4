// 10. Memory of long sessions and long runs (issue 28): what a serving session keeps per 1,000
// requests once warmed up, and the peak RSS of a run of many writes against the data its world
// holds at the end. Requests go through the session in-process (the HTTP face adds nothing kept).
// Memory after a full collection (--expose-gc): heap used, and the resident set.
import { emit, type Row } from '../lib/result.js';
import { serve } from '../../src/serve/serve.js';
import { runScenario } from '../../src/scenario/runner.js';
import { parseScenario } from '../../src/scenario/schema.js';
import { canonicalJson } from '../../src/kernel/canonical.js';

const quick = process.env.BENCH_QUICK === '1';
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

/** A run of `n` writes to new keys: its peak RSS against the canonical size of its final state. */
async function bigRun(n: number): Promise<{ peakRss: number; live: number; baseRss: number; ms: number }> {
  const baseRss = settled().rss;
  const steps = Array.from({ length: n }, (_, i) => ({ request: `POST secret/data/k${i}`, on: 'east', body: { data: { v: i } } }));
  const parsed = parseScenario({ name: 'many writes', seed: 1, clusters: { east: {} }, steps });
  if (!parsed.success) throw new Error('the scenario does not parse');
  const t0 = performance.now();
  const result = await runScenario(parsed.data);
  const ms = performance.now() - t0;
  const live = Buffer.byteLength(canonicalJson(result.world.state));
  return { peakRss: process.resourceUsage().maxRSS * 1024, live, baseRss, ms };
}

const rows: Row[] = [];
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
    note: `RSS ${mb(g.start)} -> ${mb(g.end)} MB over ${total - 1000} requests (${mb(g.rssPer1000)} MB per 1,000); the log's events and each step's record (request, response, findings) are kept`,
    detail: g,
  });
}
const n = quick ? 10_000 : 100_000;
const r = await bigRun(n);
const ratio = (r.peakRss - r.baseRss) / r.live;
rows.push({
  id: 'run-peak-rss',
  section: 10,
  title: `a ${n.toLocaleString('en-US')}-write run: peak RSS against its live data`,
  replsim: { name: 'peak RSS above the start', value: mb(r.peakRss - r.baseRss), unit: 'MB' },
  goal: 'peak RSS <= 3x live data + a constant',
  met: r.peakRss - r.baseRss <= 3 * r.live + 64e6,
  note: `live data (canonical JSON of the final state) ${mb(r.live)} MB; ${ratio.toFixed(1)}x; run took ${Math.round(r.ms)} ms`,
  detail: r,
});
emit(rows);
