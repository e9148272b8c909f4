import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property tests and the gallery build many worlds; the defaults are too tight for a 2-core CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
