// Issue #15's row "one key rewritten: µs per write at 2.5k and 10k writes": one cluster, one KV-v2 key
// written again and again. The key holds the service's default 10 versions (older ones are dropped,
// src/areas/core/versions.ts), so a write costs the same at 10k writes as at 2.5k (it was 258 /
// 1,284 µs when every version was kept and copied per write). A second pair of rows keeps every
// version (the mount's max_versions 100,000): the versions are a persistent map, so even then a
// write's cost does not grow with the versions held.
// Each figure: µs of CPU per write, median of 8 rounds of 250 writes after a warm-up round, the rounds
// centred on the key's N-th write (so "at 2,500 writes" times writes 1,375 … 3,625).
import { World } from '../../src/world.js';
import { median, time } from '../lib/measure.js';
import { emit, type Row } from '../lib/result.js';
import { KV_SPEC, rootOf, write } from '../lib/worlds.js';

const quick = process.env.BENCH_QUICK === '1';
const TIMED = quick ? 100 : 250;
const ROUNDS = 8;
const AT = [2_500, 10_000];
const GOAL = 'ratio <= 1.5x (flat)';

/** µs per write at each count of writes already done, on a fresh world with this mount config. */
function curve(config: Record<string, unknown> | null): { at: number; us: number; rounds: number[]; held: number }[] {
  const w = World.create({ p: KV_SPEC }, { seed: 1 });
  const token = rootOf(w, 'p');
  if (config) {
    const r = w.request('p', { method: 'POST', path: 'secret/config', body: config, token });
    if (r.status !== 204) throw new Error(`secret/config: ${r.status} ${JSON.stringify(r.body)}`);
  }
  let v = 0;
  const out = [];
  for (const at of AT) {
    while (v < at - ((ROUNDS + 1) * TIMED) / 2) write(w, 'p', token, 'app/hot', { v: v++ });
    const rounds: number[] = [];
    for (let r = 0; r <= ROUNDS; r++) {
      const ms = time(() => {
        for (let i = 0; i < TIMED; i++) write(w, 'p', token, 'app/hot', { v: v++ });
      });
      if (r > 0) rounds.push((ms / TIMED) * 1000);
    }
    if (v < at) throw new Error(`the rounds did not reach ${at} writes`);
    const held = w.state.clusters.named('p').storage.kv['secret/'].get('app/hot')!.versions.size;
    out.push({ at, us: median(rounds), rounds, held });
  }
  return out;
}

// Warm the JIT up on a throwaway world first, so the first figure does not pay for compiling.
{
  const w = World.create({ p: KV_SPEC }, { seed: 2 });
  const token = rootOf(w, 'p');
  for (let i = 0; i < (quick ? 1_000 : 5_000); i++) write(w, 'p', token, `warm/k${i % 3}`, { v: i });
}

const rows: Row[] = [];
for (const [id, title, config] of [
  ['kv-versions-default', 'one key rewritten (max_versions default 10)', null],
  ['kv-versions-all-kept', 'one key rewritten, every version kept (max_versions 100,000)', { max_versions: 100_000 }],
] as const) {
  const [low, high] = curve(config);
  for (const p of [low, high]) {
    rows.push({
      id: `${id}-${p.at}`,
      section: 5,
      title: `${title}: µs per write at ${p.at.toLocaleString('en')} writes`,
      replsim: { name: `CPU per write, ${p.held} versions held`, value: p.us, unit: 'µs' },
      goal: p === high ? GOAL : 'the base of the ratio',
      ...(p === high ? { baseline: { name: `the same at ${low.at.toLocaleString('en')} writes`, value: low.us, unit: 'µs' }, ratio: high.us / low.us } : {}),
      met: p === high ? high.us / low.us <= 1.5 : null,
      detail: { rounds: p.rounds, versionsHeld: p.held, timedWrites: TIMED },
    });
  }
}
emit(rows);
