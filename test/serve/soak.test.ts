// A soak sized for CI: a serving session takes 3,000 small KV writes and its heap, after a full
// collection, must not grow by more than a bound per 1,000 requests once warmed up. The bound is
// loose on purpose (the benchmark, `npm run bench -- --only session-memory`, measures the rate): it
// catches unbounded growth — a state kept per request that shares nothing, a cache that never lets go,
// a step record kept whole (some 3.6 MB per 1,000 when each was a dictionary of properties; 0.6 MB
// measured with the records deflated).
import { afterEach, describe, expect, it } from 'vitest';
import { heapAfterCollection } from '../heap.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';

const heap = heapAfterCollection;

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe('a long session stays within a memory bound per request', () => {
  it('3,000 small writes: the heap grows by less than 3 MB per 1,000 after 1,000 of warm-up', async () => {
    handle = await serve({ clusters: ['east', 'west'], clock: 'manual' });
    const token = handle.world.tokenNamed('east', 'root')!;
    let warm = 0;
    for (let i = 0; i < 3000; i++) {
      if (i === 1000) warm = heap();
      await handle.session.request('east', { method: 'POST', path: `secret/data/k${i % 100}`, body: { data: { v: i } }, token });
    }
    const perThousand = (heap() - warm) / 2;
    expect(perThousand).toBeLessThan(3e6);
  }, 120_000);
});
