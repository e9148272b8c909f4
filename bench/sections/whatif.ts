// `replsim whatif --faults 1` on the gallery's planned-failover runbook (scenarios/26), on one core:
// variants per second, next to a plain run of the same file (what `replsim run` does, without
// narration). Variants share the run before their fault (the world is forked there), so a variant
// costs less than a plain run: the ratio is a variant's cost counted in plain-run steps (the time of
// all variants over their count, against a plain run's time over its steps). Goal: at most 20 steps.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { Whatif } from '../../src/whatif/engine.js';
import { DEFAULT_KINDS } from '../../src/whatif/faults.js';
import { cpuMs, median, settle } from '../lib/measure.js';
import { emit } from '../lib/result.js';

const quick = process.env.BENCH_QUICK === '1';
const FILE = 'scenarios/26-dr-runbook-robust.yaml';
const loaded = loadScenario(readFileSync(join(import.meta.dirname, '..', '..', FILE), 'utf8'), FILE);
if (!loaded.ok) throw new Error(`${FILE} does not load`);
const scenario = loaded.scenario;
const steps = scenario.steps.length;

async function plain(): Promise<number> {
  settle();
  const t0 = cpuMs();
  const r = await runScenario(scenario);
  if (r.verdict !== 'valid') throw new Error(`${FILE} does not pass`);
  return cpuMs() - t0;
}

async function whatif(): Promise<{ ms: number; variants: number; unsafe: number }> {
  settle();
  const t0 = cpuMs();
  const w = new Whatif(scenario, { faults: 1, kinds: DEFAULT_KINDS, forbid: ['two-primaries', 'lost-writes'], seed: scenario.seed, budget: 20_000 });
  const b = await w.baseline();
  const plan = w.plan(b.singles, b.pruned);
  let unsafe = 0;
  await w.run(plan, b.result.picture, { from: 0, to: plan.variants.length }, (r) => (unsafe += r.outcome === 'unsafe' ? 1 : 0));
  return { ms: cpuMs() - t0, variants: plan.variants.length, unsafe };
}

// Warm-up: the JIT compiles on throwaway runs first.
for (let i = 0; i < (quick ? 3 : 10); i++) await plain();
await whatif();

const plains: number[] = [];
const whatifs: number[] = [];
let variants = 0;
for (let r = 0; r < (quick ? 3 : 7); r++) {
  // Interleaved, so a burst of load on the shared machine hits both sides alike.
  for (let i = 0; i < 5; i++) plains.push(await plain());
  const w = await whatif();
  if (w.unsafe !== 0) throw new Error(`${FILE} is no longer robust: ${w.unsafe} unsafe placements`);
  whatifs.push(w.ms);
  variants = w.variants;
}
const plainMs = median(plains);
const whatifMs = median(whatifs);
const perVariantSteps = whatifMs / variants / (plainMs / steps);
emit([
  {
    id: 'whatif-variants-per-second',
    section: 9,
    title: `replsim whatif --faults 1 on ${FILE} (${steps} steps, ${variants} variants): variants per second on one core`,
    replsim: { name: 'variants per second (baseline, plan and every variant)', value: (variants / whatifMs) * 1000, unit: '/s' },
    goal: 'the base of the next row',
    met: null,
    detail: { whatifMs: whatifs, variants },
  },
  {
    id: 'whatif-variant-cost',
    section: 9,
    title: `replsim whatif: one variant's cost in plain-run steps (all ${variants} variants in ${whatifMs.toFixed(0)} ms; a plain run ${plainMs.toFixed(1)} ms)`,
    replsim: { name: 'CPU per variant', value: whatifMs / variants, unit: 'ms' },
    baseline: { name: `a plain run's CPU per step (${steps} steps)`, value: plainMs / steps, unit: 'ms' },
    ratio: perVariantSteps,
    goal: 'ratio <= 20x (a variant costs at most 20 plain-run steps)',
    met: perVariantSteps <= 20,
    detail: { plainMs: plains, whatifMs: whatifs },
  },
]);
