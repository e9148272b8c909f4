// The task a worker thread of `replsim check --workers N` runs: one range of property runs
// (src/explore/workers.ts hands them out). Bundled on its own as dist/cli/property-worker.mjs.
import { runRange, type RangeResult, type RunSettings } from './property-runs.js';
import { buildStart } from './start.js';

export interface RangeTask {
  settings: RunSettings;
  from: number;
  to: number;
}

export default async function runTask(task: RangeTask): Promise<RangeResult> {
  // A run from a scenario forks the world its steps built: this thread builds it once (the main thread checked that it builds).
  if (task.settings.from) {
    const built = await buildStart(task.settings.from);
    if (!built.ok) throw new Error(built.problem.lines.join('\n'));
  }
  return runRange(task.settings, task.from, task.to);
}
