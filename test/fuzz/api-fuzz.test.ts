// The bounded API fuzz of CI (issue 14): 5,000 generated requests over the route table,
// with the built-in prototypes frozen so that any write through a request-derived name throws.
// `npm run fuzz` runs the same checks over 100,000 requests (test/fuzz/run.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { freezePrototypes, fuzz } from './api-fuzz.js';

describe('API fuzz (bounded)', () => {
  beforeAll(() => freezePrototypes());

  it('no request throws, changes a prototype, answers an unexplained 5xx or the wrong shape, or changes the world when refused', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 14);
    const requests = Number(process.env.FUZZ_REQUESTS ?? 5_000);
    const stats = await fuzz({ requests, seed });
    expect(stats.failures).toEqual([]);
    expect({ throws: stats.throws, prototypeChanges: stats.prototypeChanges, unexplained5xx: stats.unexplained5xx, badShape: stats.badShape, refusedButChanged: stats.refusedButChanged, historyFailures: stats.historyFailures }).toEqual({
      throws: 0,
      prototypeChanges: 0,
      unexplained5xx: 0,
      badShape: 0,
      refusedButChanged: 0,
      historyFailures: 0,
    });
    // The generator reaches both sides: answers and refusals of several kinds.
    expect(stats.requests).toBeGreaterThanOrEqual(requests * 0.5);
    for (const status of [200, 204, 400, 403, 404, 405]) expect(stats.statuses[status] ?? 0).toBeGreaterThan(0);
  });
});
