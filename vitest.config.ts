import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The end-to-end tests: they spawn the real `replsim` command (or npm, or a browser) as a user or a
 * CI job would, so they cost processes and seconds each. `npm test` runs every project;
 * `npm run test:unit` (in-process, the quick loop while editing) and `npm run test:e2e` run some.
 */
const E2E = [
  'test/cli/**/*.test.ts',
  'test/package/pack.test.ts',
  'test/explore/explore-cli.test.ts',
  'test/explore/property/check-cli.test.ts',
  'test/report/junit.test.ts',
  'test/report/report-browser.test.ts',
  'test/serve/node-vault-e2e.test.ts',
  'test/serve/readme-curl.test.ts',
  'test/serve/serve-options.test.ts',
];

/**
 * The in-process tests that must not share a module graph with others: they replace modules
 * (vi.mock) or World's methods, read the refusal registry in the order a fresh process registers it
 * (as the docs' generators do), or measure the heap (another file's memos and garbage would weigh on it).
 */
const ISOLATED = [
  'test/areas/replication/monitors/independence.test.ts',
  'test/check/watched-flows.test.ts',
  'test/kernel/refusals.test.ts',
  'test/report/rules-doc.test.ts',
  'test/scenario/loaded-text.test.ts',
  'test/scenario/run-memory.test.ts',
  'test/serve/soak.test.ts',
];

/** The API fuzz seals the built-in prototypes for the rest of its process: a project of its own gets a process of its own. */
const SEALED = ['test/fuzz/api-fuzz.test.ts'];

/**
 * The files that take longest (BENCHMARKS.md, "Test suite time"), longest first. vitest starts the
 * files it has timed before longest first, but a fresh clone (CI: `npm ci` empties its cache in
 * node_modules) has no times, and vitest then starts the largest files first: the short file of
 * CI-grid property runs (45 s) started 48 s before the end of the run, and ran alone at the end.
 */
const SLOW = [
  'test/explore/property/ci-grid.test.ts',
  'test/cli/crash-safe.test.ts',
  'test/cli/cli.test.ts',
  'test/package/pack.test.ts',
  'test/whatif/whatif.test.ts',
  'test/report/mermaid-browser.test.ts',
  'test/whatif/workers.test.ts',
  'test/fuzz/api-fuzz.test.ts',
  'test/scenario/hostile-files.test.ts',
  'test/serve/readme-curl.test.ts',
];

/** vitest's order, with the SLOW files first. */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW.findIndex((path) => f.moduleId.endsWith(path));
      return i < 0 ? SLOW.length : i;
    };
    return (await super.sort(files)).map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    // Property tests and the gallery build many worlds; the defaults are too tight for a 2-core CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/setup/yield.ts', 'test/setup/fresh-fetch.ts'],
    // vitest runs one test file per core but one; on 2 cores that is one file at a time, leaving a
    // core idle while a file computes in its own process. Two at least: the files are CPU-bound.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker process runs many files, each project's in processes of its own. Isolated (the
    // default), every file imported the simulator's 150-odd modules again in a fresh process:
    // about 1.5 s of CPU a file, more than half of the unit tests' time. The unit tests share one
    // module graph a worker; the projects that need a fresh one ask for it below.
    isolate: false,
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, ...ISOLATED, ...SEALED] } },
      // isolate: true here resets the modules and the mocks before each file (in a reused process).
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { name: 'unit-sealed', include: SEALED, isolate: true } },
      { extends: true, test: { name: 'e2e', include: E2E, isolate: true } },
    ],
  },
});
