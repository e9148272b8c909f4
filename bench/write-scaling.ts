// Issue #15's write-scaling curve, bounded and on its own: µs per replicated KV-v2 write on a DR
// primary with 3 secondaries (each write followed by `advance(latency)`, so delivered to all three),
// with the mount's key map holding 1k … 25k keys. Filling the map is not timed; then 500 writes over
// existing keys are, median of 3 rounds after a warm-up round.
//   npx tsx bench/write-scaling.ts [checkout root, default this one] [key counts, default 1000,5000,10000,25000]
// The root argument measures another checkout's sources with this same script (a before/after).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const sizes = (process.argv[3] ?? '1000,5000,10000,25000').split(',').map(Number);
const worlds = (await import(pathToFileURL(`${root}/bench/lib/worlds.ts`).href)) as typeof import('./lib/worlds.js');
const { LATENCY_MS, replicationSet, rootOf, write } = worlds;

const TIMED = 500;
for (const keys of sizes) {
  const w = replicationSet('dr', 3);
  const token = rootOf(w, 'p');
  let v = 0;
  for (let k = 0; k < keys; k++) {
    write(w, 'p', token, `app/k${k}`, { v: v++ });
    w.advance(LATENCY_MS);
  }
  const rounds: number[] = [];
  // Round 0 warms the JIT up and is not counted.
  for (let r = 0; r < 4; r++) {
    const t0 = performance.now();
    for (let i = 0; i < TIMED; i++) {
      write(w, 'p', token, `app/k${(i * 7919) % keys}`, { v: v++ });
      w.advance(LATENCY_MS);
    }
    if (r > 0) rounds.push(((performance.now() - t0) / TIMED) * 1000);
  }
  const s = w.state.clusters;
  for (const n of ['s1', 's2', 's3']) if (s.named(n).replication.dr.lastRemoteWal !== s.named('p').wal.last) throw new Error(`${n} did not apply every write`);
  rounds.sort((a, b) => a - b);
  console.log(`${keys} keys: ${rounds[1].toFixed(0)} µs per replicated write (rounds ${rounds.map((x) => x.toFixed(0)).join(' / ')})`);
}
