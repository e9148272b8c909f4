import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests: they spawn the real `replsim` command (or npm, or a browser) as a user or a
 * CI job would, so they cost processes and seconds each. `npm test` runs both projects;
 * `npm run test:unit` (in-process, the quick loop while editing) and `npm run test:e2e` run one.
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

export default defineConfig({
  test: {
    // Property tests and the gallery build many worlds; the defaults are too tight for a 2-core CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/setup/yield.ts'],
    // vitest runs one test file per core but one; on 2 cores that is one file at a time, leaving a
    // core idle while a file computes in its own process. Two at least: the files are CPU-bound.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
