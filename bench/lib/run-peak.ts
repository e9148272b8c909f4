// A run of many writes in a process of its own, so that its peak resident set is its own (a section's
// earlier work would set the process's peak otherwise). Prints one line of JSON: the resident set
// after start-up and a full collection (for `cli`, the peak of a one-step run), the peak, the live
// data (canonical JSON of the final state) and the wall time.
//
//   node --expose-gc --import tsx bench/lib/run-peak.ts runner N [cli-heap]
//                                                                 runScenario on a scenario built in memory, with V8's
//                                                                 own heap settings (the library sets none), or with
//                                                                 `cli-heap` the settings the CLI's entry makes
//   node --expose-gc --import tsx bench/lib/run-peak.ts cli N      `node bin/replsim.js run FILE --out DIR --quiet` on a YAML
//                                                                 file, in a process of its own, against the same
//                                                                 command on a one-step file
//   node --expose-gc --import tsx bench/lib/run-peak.ts run N      runScenario alone: steps made as the schema makes them,
//                                                                 without passing each through it (the schema's own
//                                                                 garbage left out), and the heap the run keeps
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScenario } from '../../src/scenario/runner.js';
import { parseScenario, type Step } from '../../src/scenario/schema.js';
import { canonicalJson } from '../../src/kernel/canonical.js';
import { tuneHeap } from '../../src/cli/heap.js';
import { bundleState } from './bundle.js';
import { readHistory } from '../../src/kernel/persist.js';
import { isKnownEventType, World } from '../../src/world.js';
import type { SimEvent } from '../../src/areas/core/events.js';

const [mode, count, heap] = process.argv.slice(2);
const n = Number(count);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const settled = () => {
  gc();
  gc();
  return process.memoryUsage();
};

if (mode === 'runner') {
  if (heap === 'cli-heap') tuneHeap(['run']);
  const baseRss = settled().rss;
  const t0 = performance.now();
  // The steps are made as the run reaches them, 256 at a time through the schema: the row measures
  // the run, not a benchmark holding 100,000 parsed steps (or the schema's garbage for all of them).
  const head = parseScenario({ name: 'many writes', seed: 1, clusters: { east: {} }, steps: [] });
  if (!head.success) throw new Error('the scenario does not parse');
  function* made(): Generator<Step> {
    for (let from = 0; from < n; from += 256) {
      const batch = Array.from({ length: Math.min(256, n - from) }, (_, j) => ({ request: `POST secret/data/k${from + j}`, on: 'east', body: { data: { v: from + j } } }));
      const parsed = parseScenario({ name: 'many writes', clusters: { east: {} }, steps: batch });
      if (!parsed.success) throw new Error('the steps do not parse');
      yield* parsed.data.steps;
    }
  }
  const parsed = { data: { ...head.data, steps: { length: n, [Symbol.iterator]: made } } };
  const result = await runScenario(parsed.data);
  const ms = performance.now() - t0;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const live = Buffer.byteLength(canonicalJson(result.world.state));
  console.log(JSON.stringify({ baseRss, peakRss, live, ms, steps: result.steps.length }));
} else if (mode === 'run') {
  // One step goes through the schema; the others are copies of what it made, with their own key and value.
  const one = parseScenario({ name: 'many writes', seed: 1, clusters: { east: {} }, steps: [{ request: 'POST secret/data/k0', on: 'east', body: { data: { v: 0 } } }] });
  if (!one.success) throw new Error('the scenario does not parse');
  const first = one.data.steps[0];
  if (first.kind !== 'request') throw new Error('the step is not a request');
  const request = first;
  function* made(): Generator<Step> {
    for (let i = 0; i < n; i++) yield { ...request, path: `secret/data/k${i}`, body: { data: { v: i } }, save: {} };
  }
  const { heapUsed: heapBase, rss: baseRss } = settled();
  const t0 = performance.now();
  const result = await runScenario({ ...one.data, steps: { length: n, [Symbol.iterator]: made } });
  const ms = performance.now() - t0;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const kept = settled().heapUsed - heapBase;
  const live = Buffer.byteLength(canonicalJson(result.world.state));
  console.log(JSON.stringify({ baseRss, peakRss, live, kept, ms, steps: result.steps.length }));
} else if (mode === 'cli') {
  // The process a user starts: `node bin/replsim.js run FILE --out DIR --quiet` (the bundle, rebuilt
  // first when the sources are newer: bundle.ts), its peak written by a preloaded exit hook. Its start is the
  // peak of the same command on a one-step file: what the process needs to run anything (some 100 MB
  // with the bundle), so the row is what the 100,000 steps add.
  const root = join(import.meta.dirname, '..', '..');
  const from = bundleState();
  const dir = mkdtempSync(join(tmpdir(), 'replsim-bench-run-peak-'));
  const steps = (count: number) => {
    let text = 'name: many writes\nseed: 1\nclusters:\n  east: {}\nsteps:\n';
    for (let i = 0; i < count; i++) text += `  - {request: POST secret/data/k${i}, on: east, body: {data: {v: ${i}}}}\n`;
    return text;
  };
  const replsimPeak = (file: string, out: string): { peakRss: number; ms: number } => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', join(root, 'bench', 'lib', 'report-peak.mjs'), join(root, 'bin', 'replsim.js'), 'run', file, '--out', out, '--quiet'], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const ms = performance.now() - t0;
    const line = /^replsim-peak-rss (\d+)$/m.exec(r.stderr);
    if (r.status !== 0 || !line) throw new Error(`replsim run ${file} exited ${r.status}: ${r.stderr}`);
    return { peakRss: Number(line[1]), ms };
  };
  writeFileSync(join(dir, 'one.yaml'), steps(1));
  const file = join(dir, 'writes.yaml');
  writeFileSync(file, steps(n));
  const bytes = statSync(file).size;
  const baseRss = replsimPeak(join(dir, 'one.yaml'), join(dir, 'out-one')).peakRss;
  const { peakRss, ms } = replsimPeak(file, join(dir, 'out'));
  // The live data: the final state folded again from the history written.
  const history = readHistory<SimEvent>(join(dir, 'out', 'history.jsonl'), isKnownEventType);
  const live = Buffer.byteLength(canonicalJson(World.replay(history).state));
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ baseRss, peakRss, live, ms, bytes, from }));
} else {
  throw new Error('usage: run-peak.ts runner N [cli-heap] | run N | cli N');
}
