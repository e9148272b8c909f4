// `replsim check --workers N`: ranges of property runs on a pool of worker threads (tinypool). Runs
// are cut into contiguous chunks handed out in run order; every run depends on the seed and its index
// only (src/explore/property-runs.ts), so the chunks, joined in run order up to the first failing
// run, give what one worker gives, whatever N and whichever worker finishes first. Once a run has
// failed, chunks after it are no longer handed out (the whole run would have stopped there).
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import { bundleIsFresh } from '../../bin/bundle-fresh.mjs';
import type { RangeTask } from './property-worker.js';
import { chunksOf, joinRanges, runRange, type JoinedRuns, type RangeResult, type RunSettings } from './property-runs.js';

/**
 * Worker threads by default. A thread does not come free: each compiles the code again (V8's
 * optimising compiler, some 2–3 s of CPU over its first runs), and one thread alone already keeps
 * 0.2–0.35 of another core busy with that compiler and the garbage collector. Measured on 2 cores
 * (BENCHMARKS.md, workers), `--workers 2` finished 6,000 to 24,000 runs 1.0–1.1x sooner
 * than `--workers 1` for 40–60% more CPU: so by default one core is left to those threads, and a
 * thread is added per 250,000 commands (5,000 runs of 50 steps), so that its warm-up stays small
 * against its share of the work.
 */
export const COMMANDS_PER_DEFAULT_WORKER = 250_000;

/** Worker threads by default for `runs` runs of up to `steps` commands: one per 250,000 commands, at most one per core but one, at least one. */
export function defaultWorkers(runs: number, steps: number): number {
  return Math.max(1, Math.min(availableParallelism() - 1, Math.floor((runs * steps) / COMMANDS_PER_DEFAULT_WORKER)));
}

/** At most this many runs per chunk: small enough to spread the work and stop soon after a failure. */
const MAX_CHUNK = 25;
/** Fewer runs than this per worker run in the calling thread (the result is the same). */
const MIN_RUNS_PER_WORKER = 10;

/**
 * A worker task's module, by name (`property-worker`, `whatif-worker`). In the bundle
 * (dist/cli/replsim.mjs) each task is its own bundle beside it (scripts/build.mjs). From the sources
 * (tsx, vitest) this file is TypeScript: the workers load that same bundle when it is newer than
 * every source file (the rule bin/replsim.js applies to the CLI), since a worker that compiles the
 * sources through tsx takes 2–3 s to start against 0.3 s; otherwise they start through the task's
 * `scripts/workers/NAME-tsx.mjs` (checkout-only, as tsx is a devDependency), so an edit never runs stale.
 */
export function workerFile(name = 'property-worker'): string {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL(`./${name}.mjs`, here).href;
  const bundled = new URL(`../../dist/cli/${name}.mjs`, here);
  return bundleIsFresh(fileURLToPath(bundled), fileURLToPath(new URL('../../', here))) ? bundled.href : new URL(`../../scripts/workers/${name}-tsx.mjs`, here).href;
}

export interface WorkersOptions {
  settings: RunSettings;
  /** The runs to run: `from` (from 0) to `to` (excluded); the whole run space by default. */
  range?: { from: number; to: number };
  /** Worker threads; 1 runs in this thread. */
  workers: number;
  /** Runs per chunk handed to a worker (default: a quarter of a worker's share, at most 25); the results do not depend on it. */
  chunk?: number;
  /** Runs completed so far (in any order), after each chunk; with one worker, after each run. */
  onProgress?: (p: { phase: 'run' | 'shrink'; done: number; runs: number }) => void;
}

/** Runs the range on `workers` threads (a pool started for it, and closed after) and joins the chunks in run order. */
export async function runOnWorkers(options: WorkersOptions): Promise<{ parts: RangeResult[]; joined: JoinedRuns }> {
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new RangeError(`workers must be a whole number of at least 1, not ${options.workers}`);
  const from = options.range?.from ?? 0;
  const to = options.range?.to ?? options.settings.runs;
  // A worker takes a moment to start (0.3 s from the bundle, 2–3 s from the sources): a few runs run here.
  const workers = Math.min(options.workers, Math.max(1, Math.floor((to - from) / MIN_RUNS_PER_WORKER)));
  if (workers === 1) return join(options, [runRange(options.settings, from, to, options.onProgress)]);
  const pool = new PropertyPool(workers);
  try {
    return await pool.run(options);
  } finally {
    await pool.close();
  }
}

function join(options: Omit<WorkersOptions, 'workers'>, parts: RangeResult[]): { parts: RangeResult[]; joined: JoinedRuns } {
  const from = options.range?.from ?? 0;
  const to = options.range?.to ?? options.settings.runs;
  // Join as if the range were the whole run space: the parts cover from .. to.
  const shifted = parts.map((p) => ({ ...p, from: p.from - from, to: p.to - from }));
  const joined = joinRanges(options.settings.seed, to - from, shifted);
  if (!joined.ok) throw new Error(`replsim: the workers' runs do not join: ${joined.message}`);
  return { parts, joined: joined.joined };
}

/**
 * A pool of worker threads kept across several runs (the benchmark times warm workers; a run's own
 * pool is started and closed by runOnWorkers).
 */
export class PropertyPool {
  private readonly pool: Tinypool;

  constructor(readonly workers: number) {
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a whole number of at least 1, not ${workers}`);
    this.pool = new Tinypool({ filename: workerFile(), minThreads: workers, maxThreads: workers, idleTimeout: 1000 });
  }

  async run(options: Omit<WorkersOptions, 'workers'>): Promise<{ parts: RangeResult[]; joined: JoinedRuns }> {
    const from = options.range?.from ?? 0;
    const to = options.range?.to ?? options.settings.runs;
    return join(options, await onPool(this.pool, options.settings, from, to, this.workers, options.chunk, options.onProgress));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

async function onPool(pool: Tinypool, settings: RunSettings, from: number, to: number, workers: number, chunk: number | undefined, onProgress: WorkersOptions['onProgress']): Promise<RangeResult[]> {
  const size = chunk ?? Math.max(1, Math.min(MAX_CHUNK, Math.ceil((to - from) / (workers * 4))));
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk must be a whole number of at least 1, not ${size}`);
  const chunks = chunksOf(from, to, size);
  const results: RangeResult[] = [];
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let running = 0;
    let done = 0;
    /** The index of the first failing run seen so far: chunks starting after it are not needed. */
    let failedAt = Infinity;
    let broken = false;
    const pump = () => {
      // Two chunks per worker in flight keep every worker busy without queueing the whole run.
      while (!broken && running < workers * 2 && next < chunks.length && chunks[next].from < failedAt) {
        const task: RangeTask = { settings, ...chunks[next++] };
        running++;
        (pool.run(task) as Promise<RangeResult>).then(
          (r) => {
            running--;
            results.push(r);
            done += r.runs;
            if (r.finding) failedAt = Math.min(failedAt, r.finding.run - 1);
            onProgress?.({ phase: 'run', done, runs: to - from });
            pump();
          },
          (e: unknown) => {
            broken = true;
            reject(e);
          },
        );
      }
      if (running === 0 && !broken) resolve();
    };
    pump();
  });
  return results;
}
