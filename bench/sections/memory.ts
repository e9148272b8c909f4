// 5. Scale and memory: heap per idle cluster in a 1,000-cluster world (heapUsed after a forced
// garbage collection, minus the same before the world was made, over 1,000), and a 1,000-cluster
// world streaming writes: 250 DR sets of one primary and three secondaries, writes round the
// primaries, each delivered (advance) before the next. The world keeps its whole log, as a run does.
import type { Topology } from '../../src/areas/cluster/genesis.js';
import { World } from '../../src/world.js';
import { collect, median, time } from '../lib/measure.js';
import { emit, type Row } from '../lib/result.js';
import { KV_SPEC, LATENCY_MS, replicate, rootOf, write } from '../lib/worlds.js';

const quick = process.env.BENCH_QUICK === '1';
const CLUSTERS = 1000;
const GOAL_KIB = 64;
const GOAL = `<= ${GOAL_KIB} KiB per cluster`;

if (typeof (globalThis as { gc?: unknown }).gc !== 'function') throw new Error('run with --expose-gc (npm run bench does)');

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

// Everything a world needs loaded and warmed, so that only the world itself is counted.
World.create({ warm: KV_SPEC }, { seed: 1 });

const rows: Row[] = [];

// Idle: clusters as initialised, nothing done.
{
  const topology: Topology = {};
  for (let i = 0; i < CLUSTERS; i++) topology[`c${String(i).padStart(4, '0')}`] = KV_SPEC;
  const h0 = heapUsed();
  let w!: World;
  const createMs = time(() => (w = World.create(topology, { seed: 1 })));
  const perCluster = (heapUsed() - h0) / CLUSTERS / 1024;
  if (w.state.clusters.names.length !== CLUSTERS) throw new Error('world not built');
  rows.push({
    id: 'memory-idle',
    section: 5,
    title: `Heap per idle cluster, ${CLUSTERS.toLocaleString('en-GB')}-cluster world`,
    replsim: { name: 'heapUsed after gc / clusters', value: perCluster, unit: 'KiB/cluster' },
    goal: GOAL,
    met: perCluster <= GOAL_KIB,
    note: `world created in ${(createMs / 1000).toFixed(1)} s of CPU`,
    detail: { clusters: CLUSTERS, createMs },
  });
}

// Streaming: 250 DR sets of 4.
{
  const sets = CLUSTERS / 4;
  const group = (g: number) => `g${String(g).padStart(3, '0')}`;
  const topology: Topology = {};
  for (let g = 0; g < sets; g++) for (const role of ['p', 's1', 's2', 's3']) topology[group(g) + role] = KV_SPEC;
  const h0 = heapUsed();
  let w!: World;
  const setupMs = time(() => {
    w = World.create(topology, { seed: 1, latencyMs: LATENCY_MS });
    for (let g = 0; g < sets; g++) replicate(w, 'dr', group(g) + 'p', ['s1', 's2', 's3'].map((s) => group(g) + s));
    w.advance(1000);
  });
  const tokens = Array.from({ length: sets }, (_, g) => rootOf(w, group(g) + 'p'));
  const writes = quick ? 250 : 1000;
  const batches: number[] = [];
  let v = 0;
  const batch = 250;
  const before = w.log.length;
  for (let done = 0; done < writes; done += batch)
    batches.push(
      time(() => {
        for (let i = 0; i < batch; i++) {
          const g = (done + i) % sets;
          write(w, group(g) + 'p', tokens[g], `app/k${Math.floor((done + i) / sets) % 10}`, { v: v++ });
          w.advance(LATENCY_MS);
        }
      }),
    );
  const events = w.log.length - before;
  for (let g = 0; g < sets; g++) {
    const p = w.state.clusters.named(group(g) + 'p');
    for (const s of ['s1', 's2', 's3']) if (w.state.clusters.named(group(g) + s).replication.dr.lastRemoteWal !== p.wal.last) throw new Error(`${group(g) + s} is behind`);
  }
  const perCluster = (heapUsed() - h0) / CLUSTERS / 1024;
  const msPerWrite = median(batches) / batch;
  rows.push({
    id: 'memory-streaming',
    section: 5,
    title: `${CLUSTERS.toLocaleString('en-GB')}-cluster world streaming writes (${sets} DR sets of 1 + 3)`,
    replsim: { name: 'heapUsed after gc / clusters', value: perCluster, unit: 'KiB/cluster' },
    goal: GOAL,
    met: perCluster <= GOAL_KIB,
    note: `${writes} writes, each delivered: ${(1000 / msPerWrite).toFixed(0)} writes/s, ${((events / writes) * (1000 / msPerWrite)).toFixed(0)} events/s; set-up ${(setupMs / 1000).toFixed(1)} s of CPU; log ${w.log.length.toLocaleString('en-GB')} events`,
    detail: { clusters: CLUSTERS, sets, writes, events, setupMs, batchMs: batches, writesPerSecond: 1000 / msPerWrite, logEvents: w.log.length },
  });
}

emit(rows);
