// Bundles the CLI into one ES module (dist/cli/replsim.mjs), dependencies included, so `replsim`
// starts in a fraction of the time tsx takes to compile 100+ TypeScript files on every run
// (BENCHMARKS.md, start-up). Run by `npm ci` through the `prepare` script. It never fails the
// install: without a bundle, bin/replsim.js runs the sources through tsx as before.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  const { build } = await import('esbuild');
  mkdirSync(`${root}dist/cli`, { recursive: true });
  await build({
    // The CLI, and the task `replsim check --workers N` runs on each worker thread (src/explore/workers.ts
    // loads it from beside the CLI's bundle).
    entryPoints: { replsim: `${root}src/cli/main.ts`, 'property-worker': `${root}src/explore/property-worker.ts` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Two folders below the root, like src/cli/main.ts, which reads ../../package.json from its own URL.
    outdir: `${root}dist/cli`,
    outExtension: { '.js': '.mjs' },
    // Some dependencies are CommonJS that call require(): give the ES module one.
    banner: { js: "import { createRequire as __replsimRequire } from 'node:module'; const require = __replsimRequire(import.meta.url);" },
    // tinypool starts its workers from its own entry file (dist/entry/worker.js beside its module):
    // it stays a package import, loaded from node_modules (a runtime dependency).
    external: ['tinypool'],
    logLevel: 'warning',
  });
} catch (err) {
  console.warn(`replsim: could not bundle the CLI (${err instanceof Error ? err.message : String(err)}); bin/replsim.js will run the sources through tsx`);
}
