// The task a worker thread of `replsim check --workers N` runs: one range of property runs
// (src/explore/workers.ts hands them out). Bundled on its own as dist/cli/property-worker.mjs.
import { runRange, type RangeResult, type RunSettings } from './property-runs.js';

export interface RangeTask {
  settings: RunSettings;
  from: number;
  to: number;
}

export default function runTask(task: RangeTask): RangeResult {
  return runRange(task.settings, task.from, task.to);
}
