// A run sized for CI: 3,000 small KV writes rewriting 100 keys, its heap measured after a full
// collection at the 1,000th step and at the last, from inside the run. The world holds as much at
// the end as at the warm-up, so the heap may grow only by what a run keeps per step: its events, its
// record deflated (step-spill.ts), a checkpoint now and then (some 0.6 MB per 1,000). A record kept
// whole (1.5 KB a step), or every cluster table kept until the run ends (as a WeakRef made during a
// run that never waits did: 2.3 MB per 1,000), fails it. The benchmark (`npm run bench -- --only session-memory`)
// measures the rate; this only catches growth with the number of steps.
import { describe, expect, it } from 'vitest';
import { heapAfterCollection } from '../heap.js';
import { runScenario } from '../../src/scenario/runner.js';
import { parseScenario } from '../../src/scenario/schema.js';

const heap = heapAfterCollection;

describe('a long run stays within a memory bound per step', () => {
  it('3,000 small writes to 100 keys: the heap grows by less than 1.5 MB per 1,000 steps after 1,000', async () => {
    const steps = Array.from({ length: 3000 }, (_, i) => ({ request: `POST secret/data/k${i % 100}`, on: 'east', body: { data: { v: i } } }));
    const parsed = parseScenario({ name: 'rewrites', clusters: { east: {} }, steps });
    if (!parsed.success) throw new Error(parsed.error.message);
    let warm = 0;
    let end = 0;
    const r = await runScenario(parsed.data, {
      onStep: (s) => {
        if (s.index === 999) warm = heap();
        if (s.index === 2999) end = heap();
      },
    });
    expect(r.verdict).toBe('valid');
    const perThousand = (end - warm) / 2;
    expect(perThousand, `${Math.round(perThousand / 1e3)} KB per 1,000 steps`).toBeLessThan(1.5e6);
  }, 120_000);
});
