// 1. World throughput: replicated KV-v2 writes per second on one primary and three secondaries,
// each write followed by `advance(latency)` so that it is delivered to every secondary before the
// next, next to bare XState actors and an rxjs Subject making the same number of transitions.
// Writes go round a fixed set of keys (100, then 1,000), so the mount's key map holds that many.
import type { ReplicationKind } from '../../src/areas/core/state.js';
import { baseline } from '../lib/baseline.js';
import { interleave, median } from '../lib/measure.js';
import { emit, notAvailable, type Row } from '../lib/result.js';
import { LATENCY_MS, probe, replicationSet, rootOf, write } from '../lib/worlds.js';

const quick = process.env.BENCH_QUICK === '1';
const SECONDARIES = 3;
const KEY_SETS = [100, 1000];
const GOAL = 'ratio <= 3x';

function measure(kind: ReplicationKind, keys: number): Row {
  const w = replicationSet(kind, SECONDARIES);
  const token = rootOf(w, 'p');
  let v = 0;
  // The key map holds `keys` keys before anything is timed.
  for (let k = 0; k < keys; k++) {
    write(w, 'p', token, `app/k${k}`, { v: v++ });
    w.advance(LATENCY_MS);
  }
  let requestMs = 0;
  let advanceMs = 0;
  const round = () => {
    for (let k = 0; k < keys; k++) {
      const t0 = performance.now();
      write(w, 'p', token, `app/k${k}`, { v: v++ });
      const t1 = performance.now();
      w.advance(LATENCY_MS);
      requestMs += t1 - t0;
      advanceMs += performance.now() - t1;
    }
  };
  const before = w.log.length;
  round();
  const perWrite = (w.log.length - before) / keys;
  // Every write was delivered: each secondary has applied the primary's last WAL index.
  for (let i = 1; i <= SECONDARIES; i++) {
    const r = w.state.clusters.named(`s${i}`).replication[kind];
    if (r.lastRemoteWal !== w.state.clusters.named('p').wal.last) throw new Error(`s${i} applied WAL ${r.lastRemoteWal}, the primary wrote ${w.state.clusters.named('p').wal.last}`);
  }
  const base = baseline(SECONDARIES);
  const made = base.run(keys, perWrite);
  if (made !== keys * perWrite) throw new Error(`baseline made ${made} transitions, not ${keys * perWrite}`);
  requestMs = advanceMs = 0;
  const reps = quick ? 3 : keys >= 1000 ? 5 : 9;
  // Each repetition is at least 2,000 writes on both sides (20 rounds of 100 keys, 2 of 1,000), so a
  // repetition lasts tens of milliseconds: a window of a few milliseconds measured the compiler's
  // threads as much as the writes (CPU time counts them). Each round adds a version to every key,
  // and the service keeps 10: a key never holds more. Both sides are divided back to one round.
  const times = Math.max(1, Math.round(2_000 / keys));
  const rounds = () => {
    for (let i = 0; i < times; i++) round();
  };
  const r = interleave(rounds, () => { for (let i = 0; i < times; i++) base.run(keys, perWrite); }, reps, { a: 2, b: 3 });
  r.a = r.a.map((ms) => ms / times);
  r.b = r.b.map((ms) => ms / times);
  const ms = median(r.a);
  const baseMs = median(r.b);
  r.ratio = ms / baseMs;
  const share = requestMs / (requestMs + advanceMs);
  return {
    id: `throughput-${kind}-${keys}`,
    section: 1,
    title: `World throughput, ${kind === 'dr' ? 'DR' : 'performance'}, 1 primary + ${SECONDARIES} secondaries, ${keys.toLocaleString('en-GB')} keys`,
    replsim: { name: 'replicated writes, each delivered', value: (keys / ms) * 1000, unit: 'writes/s' },
    baseline: { name: `XState actors + rxjs Subject, ${perWrite} transitions a write`, value: (keys / baseMs) * 1000, unit: 'writes/s' },
    ratio: r.ratio,
    goal: GOAL,
    met: r.ratio <= 3,
    note: `${perWrite} events a write; ${(share * 100).toFixed(0)}% of the time in the request, ${((1 - share) * 100).toFixed(0)}% in advance`,
    detail: { keys, eventsPerWrite: perWrite, usPerWrite: (ms / keys) * 1000, baselineUsPerWrite: (baseMs / keys) * 1000, replsimMs: r.a, baselineMs: r.b },
  };
}

/**
 * Untimed writes on a throwaway set of the kind, so that the JIT has compiled the write path before
 * anything is timed: CPU time counts V8's compiler threads, and without this the first row measured
 * (100 keys) paid the compilation (issue 15: it read ~150 µs a write against ~90 at 1,000 keys).
 */
function warmUp(kind: ReplicationKind): void {
  const w = replicationSet(kind, SECONDARIES, 99);
  const token = rootOf(w, 'p');
  for (let i = 0; i < 3000; i++) {
    write(w, 'p', token, `warm/k${i % 200}`, { v: i });
    w.advance(LATENCY_MS);
  }
}

const rows: Row[] = [];
for (const kind of ['dr', 'performance'] as ReplicationKind[]) {
  const p = probe(kind);
  if (p.built) warmUp(kind);
  for (const keys of KEY_SETS) {
    if (!p.built) {
      rows.push(notAvailable(`throughput-${kind}-${keys}`, 1, `World throughput, ${kind}, ${keys} keys`, GOAL, p.why ?? 'not built'));
      continue;
    }
    try {
      rows.push(measure(kind, keys));
    } catch (e) {
      rows.push(notAvailable(`throughput-${kind}-${keys}`, 1, `World throughput, ${kind}, ${keys} keys`, GOAL, (e as Error).message));
    }
  }
}
emit(rows);
