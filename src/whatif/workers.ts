// `replsim whatif --workers N`: the plan's variants, cut into contiguous ranges, run on a pool of
// worker threads (tinypool), and handed back in plan order. A variant's outcome does not depend on
// which range it is run in (every run stops at every placement of the plan on its way: engine.ts),
// so any N gives the same variants, verdicts and exported file as one thread.
import Tinypool from 'tinypool';
import { chunksOf } from '../explore/property-runs.js';
import { workerFile } from '../explore/workers.js';
import type { Plan, VariantResult, Whatif, WhatifSettings } from './engine.js';
import type { Picture } from './settle.js';
import type { WhatifChunk, WhatifTask } from './whatif-worker.js';

/** Fewer variants than this per worker run in the calling thread: a thread takes a moment to start and runs the baseline again. */
const MIN_VARIANTS_PER_WORKER = 20;

export interface VariantsOptions {
  whatif: Whatif;
  plan: Plan;
  picture: Picture;
  range: { from: number; to: number };
  workers: number;
  /** What a worker thread rebuilds the same plan from. */
  runbook: { file: string; text: string; settings: WhatifSettings };
}

/** Runs the range's variants on `workers` threads (1: in this one) and calls `done` with each result in plan order. */
export async function runVariants(o: VariantsOptions, done: (r: VariantResult) => void): Promise<void> {
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new RangeError(`workers must be a whole number of at least 1, not ${o.workers}`);
  const total = o.range.to - o.range.from;
  const workers = Math.min(o.workers, Math.max(1, Math.floor(total / MIN_VARIANTS_PER_WORKER)));
  if (workers === 1) return o.whatif.run(o.plan, o.picture, o.range, done);
  // Four ranges per worker spread the work; each range replays the runbook up to its first variant once.
  const size = Math.max(1, Math.ceil(total / (workers * 4)));
  const pool = new Tinypool({ filename: workerFile('whatif-worker'), minThreads: workers, maxThreads: workers, idleTimeout: 1000 });
  try {
    const pending = chunksOf(o.range.from, o.range.to, size).map((c) => {
      const task: WhatifTask = { ...o.runbook, from: c.from, to: c.to };
      const p = pool.run(task) as Promise<WhatifChunk>;
      // Awaited in order below; one that fails after an earlier failure is not an unhandled rejection.
      p.catch(() => undefined);
      return p;
    });
    for (const p of pending) {
      const chunk = await p;
      o.plan.pruned.unreachable += chunk.unreachable;
      for (const r of chunk.results) done(r);
    }
  } finally {
    await pool.destroy();
  }
}
