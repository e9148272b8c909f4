// 3. Property runs: runs per second of random 50-command sequences on 3 clusters, through the check
// helper's export (src/explore/property.ts `runProperty`), every monitor run after every command.
import { collect, median, time } from '../lib/measure.js';
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
  // Warm-up on another seed, then repetitions on seeds 1, 2, 3... (each a different set of sequences).
  run({ runs: 20, seed: 1000, clusters: 3, steps: 50, shrink: false });
  const perSecond: number[] = [];
  let commands = 0;
  let requests = 0;
  let runs = 0;
  const findings: string[] = [];
  const reps = quick ? 2 : 3;
  for (let i = 1; i <= reps; i++) {
    collect();
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
  emit([row]);
}
