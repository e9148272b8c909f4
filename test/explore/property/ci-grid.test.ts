// The small fixed grid CI runs (issue #12): seeds that failed before the fixes, each at the nightly
// shape (5 clusters, 80 commands a run) with a small number of runs. `npm run check:nightly` runs the
// large grid (seeds 1-40 at 3000 runs, then 20000 runs of seed 1).
import { describe, expect, it } from 'vitest';
import { runProperty } from '../../../src/explore/property.js';

const GRID = [2, 3, 101, 31337];
const RUNS = 40;

describe('property: the CI grid', () => {
  it.each(GRID)('seed %i: 40 runs of 80 commands on 5 clusters find nothing', (seed) => {
    const r = runProperty({ runs: RUNS, seed, clusters: 5, steps: 80 });
    expect(r.findings.map((f) => `${f.kind} ${f.id ?? ''}: ${f.message}\n${f.words.join('\n')}`)).toEqual([]);
    expect(r.runs).toBe(RUNS);
  });
});
