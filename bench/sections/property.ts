// 3. Property runs: runs per second of random 50-command sequences on 3 clusters, through the check
// helper's export (src/explore/property.ts `runProperty`), every monitor run after every command.
import { settle, median, time } from '../lib/measure.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit, notAvailable, type Row } from '../lib/result.js';
import { bundleState } from '../lib/bundle.js';

const quick = process.env.BENCH_QUICK === '1';
const root = fileURLToPath(new URL('../..', import.meta.url));
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
 * `replsim check --workers 2` against `--workers 1` on what a user would spread over threads: a
 * nightly check of a few thousand runs (some 10 s on one worker), each side the whole command as a user
 * runs it (`node bin/replsim.js check ...`, from the bundle `npm ci` builds; rebuilt here first when
 * older than the sources), alternated 1 2 2 1, the ratio of the medians. Wall time, not CPU time: two
 * threads use more CPU to shorten the wait. The command's own CPU time (all its threads) and what the
 * machine's other processes used meanwhile are recorded beside it, so a loaded run shows as one. The
 * pool's start-up is measured apart (in this process: two threads started and each given one run).
 */
async function workersRow(): Promise<Row> {
  const TITLE2 = 'Property runs: --workers 2 vs 1, a nightly check (50 commands, 3 clusters)';
  const GOAL2 = '>= 1.7x --workers 1';
  let mod: typeof import('../../src/explore/workers.js');
  try {
    mod = await import('../../src/explore/workers.js');
  } catch (e) {
    return notAvailable('property-workers', 3, TITLE2, GOAL2, `src/explore/workers.ts cannot be loaded: ${(e as Error).message.split('\n')[0]}`);
  }
  const N = quick ? 1500 : 6000;
  const from = bundleState();
  const args = ['check', '--runs', String(N), '--seed', '7', '--clusters', '3', '--json'];
  const sides: Record<1 | 2, CommandRun[]> = { 1: [], 2: [] };
  const loadBefore = loadavg()[0];
  for (const w of (quick ? [1, 2] : [1, 2, 2, 1]) as (1 | 2)[]) sides[w].push(await command([...args, '--workers', String(w)]));
  const loadAfter = loadavg()[0];
  const results = new Set([...sides[1], ...sides[2]].map((r) => r.result));

  const t0 = performance.now();
  const pool = new mod.PropertyPool(2);
  let startMs: number;
  try {
    await pool.run({ settings: { runs: 2, seed: 7, clusters: 3, steps: 50, shrink: false }, chunk: 1 });
    startMs = performance.now() - t0;
  } finally {
    await pool.close();
  }
  const ceiling = await parallelCeiling();

  const wall = (w: 1 | 2) => median(sides[w].map((r) => r.wallMs));
  const cpu = (w: 1 | 2) => median(sides[w].map((r) => r.cpuMs));
  const all = [...sides[1], ...sides[2]];
  const foreignCores = all.every((r) => r.foreignMs !== null) ? all.reduce((n, r) => n + r.foreignMs!, 0) / all.reduce((n, r) => n + r.wallMs, 0) : null;
  const speedup = wall(1) / wall(2);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return {
    id: 'property-workers',
    section: 3,
    title: TITLE2,
    replsim: { name: `replsim check --runs ${N} --workers 2 vs --workers 1, whole command`, value: speedup, unit: 'x' },
    goal: GOAL2,
    met: speedup >= 1.7,
    note:
      `${N.toLocaleString('en-US')} runs: ${s(wall(1))} s on 1 worker, ${s(wall(2))} s on 2 (wall, whole command, ${from}); ` +
      `CPU ${s(cpu(1))} s and ${s(cpu(2))} s, every thread of the command: one worker already kept ${(cpu(1) / wall(1)).toFixed(2)} cores busy (V8's compiler and collector threads beside it), so 2 cores give at most ${(2 / (cpu(1) / wall(1))).toFixed(2)}x, less the second thread's compiling of the code again; ` +
      `pool start-up ${fmt(startMs)} ms; ${availableParallelism()} cores, load average ${loadBefore.toFixed(1)} then ${loadAfter.toFixed(1)}` +
      `${foreignCores === null ? '' : `, other processes used ${foreignCores.toFixed(2)} cores meanwhile`}; a plain busy loop on 2 threads ran ${ceiling.toFixed(2)}x 1 thread just after` +
      `${results.size === 1 ? '' : '; RESULTS DIFFER between 1 and 2 workers'}`,
    detail: { runs: N, from, one: sides[1], two: sides[2], startMs, busyLoopSpeedup: ceiling, cores: availableParallelism(), loadavg: [loadBefore, loadAfter], foreignCores, identical: results.size === 1 },
  };
}

interface CommandRun {
  wallMs: number;
  /** CPU time of the command's process, all its threads (user + system). */
  cpuMs: number;
  /** CPU time the machine's other processes used meanwhile (Linux: /proc/stat), or null. */
  foreignMs: number | null;
  /** The verdict line without its wall time: the same for any number of workers. */
  result: string;
}

/** Runs `node bin/replsim.js ...args` through bench/lib/cpu-of.mjs, which reports the command's CPU time. */
function command(args: string[]): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const busy0 = busyMs();
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(root, 'bench/lib/cpu-of.mjs'), join(root, 'bin/replsim.js'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const busy1 = busyMs();
      const cpu = /BENCH_CPU_MS ([\d.]+)/.exec(err);
      if (code !== 0 || !cpu) return reject(new Error(`replsim ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop()}`));
      const verdict = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
      delete verdict.wallMs;
      const cpuMs = Number(cpu[1]);
      resolve({ wallMs, cpuMs, foreignMs: busy0 === null || busy1 === null ? null : Math.max(0, busy1 - busy0 - cpuMs), result: JSON.stringify(verdict) });
    });
  });
}

/** CPU milliseconds the whole machine has spent busy (Linux), or null elsewhere. */
function busyMs(): number | null {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = f.map(Number);
    // Clock ticks, 100 a second on Linux.
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return null;
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
