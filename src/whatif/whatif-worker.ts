// The task a worker thread of `replsim whatif --workers N` runs: a contiguous range of the plan's
// variants (src/whatif/workers.ts hands them out). The thread loads the runbook, runs its baseline
// and makes the plan once, as the main thread did (the same file and settings give the same plan),
// then runs each range it is given. Bundled on its own as dist/cli/whatif-worker.mjs.
import { loadScenario } from '../scenario/loader.js';
import { Whatif, type Plan, type VariantResult, type WhatifSettings } from './engine.js';
import type { Picture } from './settle.js';
import { memoBounded } from '../kernel/memo.js';

export interface WhatifTask {
  file: string;
  text: string;
  settings: WhatifSettings;
  /** The variants of indexes `from` (from 0) to `to` (excluded) of the plan. */
  from: number;
  to: number;
}

export interface WhatifChunk {
  from: number;
  to: number;
  results: VariantResult[];
  /** Pairs of the range whose first fault stopped the runbook before the second's placement (Pruned.unreachable). */
  unreachable: number;
}

interface Prepared {
  whatif: Whatif;
  plan: Plan;
  picture: Picture;
}

// A worker is handed chunks of the same task's plan: the baseline and plan are made once per task
// (file, text, settings), the four most recent kept.
const preparedFor = memoBounded((key: string) => {
  const [file, text, settings] = JSON.parse(key) as [string, string, WhatifSettings];
  return prepare({ file, text, settings });
}, 4);

async function prepare(task: Pick<WhatifTask, 'file' | 'text' | 'settings'>): Promise<Prepared> {
  const loaded = loadScenario(task.text, task.file);
  if (!loaded.ok) throw new Error(`${task.file} does not load in the worker thread`);
  const whatif = new Whatif(loaded.scenario, task.settings, loaded.locate);
  const { result, singles, pruned } = await whatif.baseline();
  if (!result.ok) throw new Error(`the baseline of ${task.file} fails in the worker thread`);
  return { whatif, plan: whatif.plan(singles, pruned), picture: result.picture };
}

export default async function runTask(task: WhatifTask): Promise<WhatifChunk> {
  const { whatif, plan, picture } = await preparedFor(JSON.stringify([task.file, task.text, task.settings]));
  const before = plan.pruned.unreachable;
  const results: VariantResult[] = [];
  await whatif.run(plan, picture, { from: task.from, to: task.to }, (r) => results.push(r));
  return { from: task.from, to: task.to, results, unreachable: plan.pruned.unreachable - before };
}
