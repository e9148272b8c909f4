// The heap row of the scaling section (§8) alone, for one checkout: `npx tsx bench/heap-ab.ts [checkout] [writes]`.
// A world of 50 DR sets, `writes` new keys round the primaries, each delivered; heapUsed after
// collections (with turns of the event loop) minus the same before, and for a fork holding the state alone.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? '.');
const WRITES = Number(process.argv[3] ?? 5000);
const load = (p: string) => import(pathToFileURL(resolve(root, p)).href);
const { World } = await load('src/world.ts');
const { canonicalJson } = await load('src/kernel/canonical.ts');
const { KV_SPEC, LATENCY_MS, replicate, rootOf, write } = await load('bench/lib/worlds.ts');
const collect = () => (globalThis as { gc?: () => void }).gc?.();
const heapUsed = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    collect();
  }
  return process.memoryUsage().heapUsed;
};
const group = (g: number) => `g${String(g).padStart(2, '0')}`;
function build(sets: number, writes: number) {
  const topology: Record<string, unknown> = {};
  for (let g = 0; g < sets; g++) for (const role of ['p', 's1', 's2', 's3']) topology[group(g) + role] = KV_SPEC;
  const w = World.create(topology, { seed: 1, latencyMs: LATENCY_MS });
  for (let g = 0; g < sets; g++) replicate(w, 'dr', group(g) + 'p', ['s1', 's2', 's3'].map((s) => group(g) + s));
  w.advance(1000);
  const tokens = Array.from({ length: sets }, (_, g) => rootOf(w, group(g) + 'p'));
  for (let n = 0; n < writes; n++) {
    const g = n % sets;
    write(w, group(g) + 'p', tokens[g], `app/k${Math.floor(n / sets)}`, { v: n });
    w.advance(LATENCY_MS);
  }
  return w;
}
build(4, 1000);
const h0 = await heapUsed();
let w: InstanceType<typeof World> | null = build(50, WRITES);
const world = (await heapUsed()) - h0;
let fork = w!.fork();
w = null;
const state = (await heapUsed()) - h0;
const json = canonicalJson(fork.state).length;
fork = null;
const mb = (b: number) => (b / 2 ** 20).toFixed(1);
console.log(`${root}: ${WRITES} writes: world ${mb(world)} MiB = ${(world / json).toFixed(2)}x, state alone ${mb(state)} MiB = ${(state / json).toFixed(2)}x its JSON (${mb(json)} MiB)`);
