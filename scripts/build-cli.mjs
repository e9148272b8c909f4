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
    entryPoints: [`${root}src/cli/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Two folders below the root, like src/cli/main.ts, which reads ../../package.json from its own URL.
    outfile: `${root}dist/cli/replsim.mjs`,
    // Some dependencies are CommonJS that call require(): give the ES module one.
    banner: { js: "import { createRequire as __replsimRequire } from 'node:module'; const require = __replsimRequire(import.meta.url);" },
    logLevel: 'warning',
  });
} catch (err) {
  console.warn(`replsim: could not bundle the CLI (${err instanceof Error ? err.message : String(err)}); bin/replsim.js will run the sources through tsx`);
}
