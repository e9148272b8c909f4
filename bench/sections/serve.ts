// 7. `replsim serve` under load (issue 17): KV writes per second through the HTTP face on the
// loopback interface (keep-alive connections, several in flight, applied one at a time), next to
// the same writes sent in-process with `world.request`, and in-process through the serving
// session (which also runs the monitors after each request and records it as a scenario step).
// Both sides are wall clock: the HTTP client runs in this process too, and what a user of a
// rehearsal sees is the time an answer takes. Bounded: a few thousand requests on 127.0.0.1.
import { Agent, request } from 'node:http';
import { median } from '../lib/measure.js';
import { emit, type Row } from '../lib/result.js';
import { serve } from '../../src/serve/serve.js';
import { World } from '../../src/world.js';

const quick = process.env.BENCH_QUICK === '1';
const N = quick ? 500 : 2000;
const CONCURRENCY = 16;
const REPS = quick ? 2 : 3;

function post(agent: Agent, port: number, path: string, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** N writes over HTTP, CONCURRENCY in flight; wall ms. */
async function overHttp(): Promise<number> {
  const h = await serve({ clusters: ['east'], clock: 'manual' });
  const token = h.world.tokenNamed('east', 'root')!;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < N; i = next++) if ((await post(agent, h.clusters.east.port, `/v1/secret/data/k${i}`, token, `{"data":{"i":${i}}}`)) !== 200) failed++;
    }),
  );
  const ms = performance.now() - t0;
  agent.destroy();
  await h.stop();
  if (failed) throw new Error(`${failed} of ${N} writes over HTTP failed`);
  return ms;
}

/** N writes through the serving session in-process (monitors and recording, no HTTP); wall ms. */
async function throughSession(): Promise<number> {
  const h = await serve({ clusters: ['east'], clock: 'manual' });
  const token = h.world.tokenNamed('east', 'root')!;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await h.session.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { i } }, token });
  const ms = performance.now() - t0;
  await h.stop();
  return ms;
}

/** N writes with world.request; wall ms. */
function inProcess(): number {
  const w = World.create({ east: {} }, { seed: 1 });
  const token = w.tokenNamed('east', 'root')!;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) if (w.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { i } }, token }).status !== 200) throw new Error('write failed');
  return performance.now() - t0;
}

// Warm-up, then interleaved repetitions.
await overHttp();
inProcess();
await throughSession();
const http: number[] = [];
const direct: number[] = [];
const session: number[] = [];
for (let r = 0; r < REPS; r++) {
  if (r % 2 === 0) {
    http.push(await overHttp());
    direct.push(inProcess());
  } else {
    direct.push(inProcess());
    http.push(await overHttp());
  }
  session.push(await throughSession());
}
const perSec = (ms: number) => (N / ms) * 1000;
const httpRate = perSec(median(http));
const directRate = perSec(median(direct));
const sessionRate = perSec(median(session));
const row: Row = {
  id: 'serve-http',
  section: 7,
  title: `replsim serve: ${N.toLocaleString('en-GB')} KV writes over loopback HTTP, ${CONCURRENCY} in flight`,
  replsim: { name: 'requests through the HTTP face', value: httpRate, unit: 'requests/s' },
  baseline: { name: 'world.request in-process', value: directRate, unit: 'requests/s' },
  ratio: directRate / httpRate,
  goal: 'reported (no goal set)',
  met: null,
  note: `wall clock; in-process through the serving session (monitors + recording, no HTTP): ${Math.round(sessionRate).toLocaleString('en-GB')} requests/s`,
  detail: { n: N, concurrency: CONCURRENCY, httpMs: http, worldRequestMs: direct, sessionMs: session },
};

/**
 * A 40,000-character unknown cluster name sent to the control listener (`{"crash": "xxx…"}`): the
 * answer's wall time over HTTP, next to a short unknown name's. The suggestion is length-checked
 * and banded (src/kernel/suggest.ts), so the long name costs its JSON parse and little more.
 */
async function longName(): Promise<{ longMs: number[]; shortMs: number[] }> {
  const h = await serve({ clusters: ['east', 'west'], clock: 'manual' });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ host: '127.0.0.1', port: h.control.port, path: '/v1/step', method: 'POST', agent, headers: { Authorization: `Bearer ${h.control.secret}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 400 ? resolve(performance.now() - t0) : reject(new Error(`expected 400, got ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  const long = JSON.stringify({ crash: 'x'.repeat(40_000) });
  const short = JSON.stringify({ crash: 'eats' });
  const longMs: number[] = [];
  const shortMs: number[] = [];
  for (let i = 0; i < (quick ? 10 : 40); i++) {
    longMs.push(await send(long));
    shortMs.push(await send(short));
  }
  agent.destroy();
  await h.stop();
  return { longMs: longMs.slice(5), shortMs: shortMs.slice(5) };
}

const names = await longName();
const longMedian = median(names.longMs);
const longRow: Row = {
  id: 'serve-long-name',
  section: 7,
  title: 'replsim serve: a 40,000-character unknown cluster name on the control listener',
  replsim: { name: 'answer time (400 with the error), median', value: longMedian, unit: 'ms' },
  baseline: { name: 'a 4-character unknown name ("eats"), median', value: median(names.shortMs), unit: 'ms' },
  ratio: longMedian / median(names.shortMs),
  goal: 'under 10 ms',
  met: longMedian < 10,
  note: 'wall clock over loopback HTTP, keep-alive, one at a time; the first 5 answers of each are warm-up',
  detail: names,
};
emit([row, longRow]);
