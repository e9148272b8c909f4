// 3. Property runs: runs per second of random 50-command sequences on 3 clusters, through the check
// helper's export (src/explore/property.ts `runProperty`), every monitor run after every command.
import { settle, median, time } from '../lib/measure.js';
import { availableParallelism, loadavg } from 'node:os';
import { emit, notAvailable, type Row } from '../lib/result.js';

const quick = process.env.BENCH_QUICK === '1';
const GOAL = '>= 300 runs/s';
const TITLE = 'Property runs: 50-command sequences on 3 clusters';

interface PropertyResultLike {
  runs: number;
  commands: number;
  requests: number;
  findings: { kind: string; id?: string; message: string }[];
}
type RunProperty = (o: { runs: number; seed?: number; clusters?: number; steps?: number; shrink?: boolean }) => PropertyResultLike;

let runProperty: RunProperty | undefined;
let why = '';
try {
  const mod = (await import('../../src/explore/property.js')) as unknown as { runProperty?: RunProperty };
  runProperty = mod.runProperty;
  if (!runProperty) why = 'src/explore/property.ts does not export runProperty';
} catch (e) {
  why = `src/explore/property.ts cannot be loaded: ${(e as Error).message.split('\n')[0]}`;
}

if (!runProperty) emit([notAvailable('property', 3, TITLE, GOAL, why)]);
else {
  const run = runProperty;
  const RUNS = quick ? 30 : 100;
  // Warm-up on other seeds until the JIT has settled (400 runs: after 20 the rate was still climbing,
  // 100-200 runs/s, against 340-430 from about the 300th run; CPU time counts the compiler's threads),
  // then repetitions on seeds 1, 2, 3... (each a different set of sequences).
  for (let s = 0; s < (quick ? 1 : 4); s++) run({ runs: 100, seed: 1000 + s, clusters: 3, steps: 50, shrink: false });
  const perSecond: number[] = [];
  let commands = 0;
  let requests = 0;
  let runs = 0;
  const findings: string[] = [];
  const reps = quick ? 2 : 3;
  for (let i = 1; i <= reps; i++) {
    settle();
    let r!: PropertyResultLike;
    const ms = time(() => (r = run({ runs: RUNS, seed: i, clusters: 3, steps: 50, shrink: false })));
    perSecond.push((r.runs / ms) * 1000);
    runs += r.runs;
    commands += r.commands;
    requests += r.requests;
    for (const f of r.findings) findings.push(`seed ${i}: ${f.kind}${f.id ? ' ' + f.id : ''}: ${f.message}`);
  }
  const value = median(perSecond);
  const row: Row = {
    id: 'property',
    section: 3,
    title: TITLE,
    replsim: { name: 'runProperty({ clusters: 3, steps: 50 })', value, unit: 'runs/s' },
    goal: GOAL,
    met: value >= 300,
    note: `${(commands / runs).toFixed(1)} commands and ${(requests / runs).toFixed(1)} requests a run on average${findings.length ? `; ${findings.length} run(s) stopped on a finding` : ''}`,
    detail: { runsPerRep: RUNS, perSecond, runs, commands, requests, findings },
  };
  emit([row, await workersRow()]);
}

/**
 * `replsim check --workers 2` against `--workers 1`: wall-clock time of the same runs (the same seed,
 * so the same work) in this thread and on a warm pool of two worker threads (src/explore/workers.ts),
 * interleaved, the ratio of the medians. The pool's start-up is measured apart (it is paid once per
 * command). Wall time, not CPU time: two threads use twice the CPU to halve the wait, and on a
 * shared machine the ratio is bounded by the cores other processes leave free (the note gives the
 * load average).
 */
async function workersRow(): Promise<Row> {
  const TITLE2 = 'Property runs: --workers 2 vs 1 (50 commands, 3 clusters)';
  const GOAL2 = '>= 1.7x --workers 1';
  let mod: typeof import('../../src/explore/workers.js');
  try {
    mod = await import('../../src/explore/workers.js');
  } catch (e) {
    return notAvailable('property-workers', 3, TITLE2, GOAL2, `src/explore/workers.ts cannot be loaded: ${(e as Error).message.split('\n')[0]}`);
  }
  const N = quick ? 60 : 200;
  const settings = { runs: N, seed: 7, clusters: 3, steps: 50, shrink: false };
  const t0 = performance.now();
  const pool = new mod.PropertyPool(2);
  try {
    await pool.run({ settings: { ...settings, runs: 4 } });
    const startMs = performance.now() - t0;
    // Warm both sides on other seeds.
    await pool.run({ settings: { ...settings, seed: 1000, runs: 40 } });
    await mod.runOnWorkers({ settings: { ...settings, seed: 1000, runs: 20 }, workers: 1 });
    const one: number[] = [];
    const two: number[] = [];
    let same = true;
    for (let i = 0; i < (quick ? 2 : 3); i++) {
      let t = performance.now();
      const a = await mod.runOnWorkers({ settings, workers: 1 });
      one.push(performance.now() - t);
      t = performance.now();
      const b = await pool.run({ settings });
      two.push(performance.now() - t);
      same &&= JSON.stringify(a.joined) === JSON.stringify(b.joined);
    }
    const speedup = median(one) / median(two);
    const ceiling = await parallelCeiling();
    return {
      id: 'property-workers',
      section: 3,
      title: TITLE2,
      replsim: { name: 'warm pool of 2 worker threads vs this thread, same runs', value: speedup, unit: 'x' },
      goal: GOAL2,
      met: speedup >= 1.7,
      note: `${N} runs: ${fmt(median(one))} ms on 1, ${fmt(median(two))} ms on 2 (wall); pool start-up ${fmt(startMs)} ms; ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}; a plain busy loop on 2 threads ran ${ceiling.toFixed(2)}x 1 thread just after (what the machine had free)${same ? '' : '; RESULTS DIFFER between 1 and 2 workers'}`,
      detail: { runs: N, oneMs: one, twoMs: two, startMs, busyLoopSpeedup: ceiling, cores: availableParallelism(), loadavg: loadavg(), identical: same },
    };
  } finally {
    await pool.close();
  }
}

/**
 * What two threads can gain on this machine now: a busy loop on one worker thread, then the same
 * loop on two at once (2 × one's time over two's). On a machine other processes share it falls
 * well short of 2, and the workers' ratio cannot do better than it.
 */
async function parallelCeiling(): Promise<number> {
  const { Worker } = await import('node:worker_threads');
  const code = `const { parentPort } = require('node:worker_threads'); let x = 0; for (let i = 0; i < 1.5e8; i++) x = (x + i * 7) % 1000003; parentPort.postMessage(x);`;
  const run = (n: number) =>
    Promise.all(
      Array.from({ length: n }, () => new Promise<void>((resolve) => {
        const w = new Worker(code, { eval: true });
        w.once('message', () => void w.terminate().then(() => resolve()));
      })),
    );
  let t = performance.now();
  await run(1);
  const oneMs = performance.now() - t;
  t = performance.now();
  await run(2);
  return (2 * oneMs) / (performance.now() - t);
}

function fmt(ms: number): string {
  return Math.round(ms).toLocaleString('en-US');
}
