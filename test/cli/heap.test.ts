// The V8 settings the `replsim` process makes at start (src/cli/heap.ts) depend on its command: a
// run holds the young generation and grows the old one 1.25x; any other command, such as a serving
// session whose idle young generation V8 shrinks, keeps the young generation's growth and 1.5x.
// What the settings do to the peak is measured by `npm run bench` (section 10), not here.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const flags: string[] = [];
vi.mock('node:v8', async (original) => ({ ...(await original<typeof import('node:v8')>()), setFlagsFromString: (f: string) => flags.push(f) }));

const { tuneHeap } = await import('../../src/cli/heap.js');

describe('the heap settings follow the command', () => {
  beforeEach(() => {
    flags.length = 0;
  });

  it('run: pretenuring off, the old generation 1.25x, the young generation held', () => {
    tuneHeap(['run', 'scenarios/01-dr-setup.yaml', '--out', 'out']);
    expect(flags).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=25', '--semi-space-growth-factor=1']);
  });

  it('serve and the others: pretenuring off, the old generation 1.5x, the young generation left to grow', () => {
    for (const argv of [['serve', '--clusters', 'east'], ['check', 'topology.yaml'], [], ['--version']]) {
      flags.length = 0;
      tuneHeap(argv);
      expect(flags).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=50']);
    }
  });

  it('a file named run is not the run command', () => {
    tuneHeap(['serve', 'run']);
    expect(flags).not.toContain('--semi-space-growth-factor=1');
  });
});
