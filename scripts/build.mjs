// Builds what the package ships, into dist/:
//   dist/cli/replsim.mjs, dist/cli/property-worker.mjs, dist/cli/whatif-worker.mjs  the CLI and the
//                        tasks `check --workers N` and `whatif --workers N` run on each worker
//                        thread, one ES module each, dependencies included, so `replsim`
//                        starts in a fraction of the time tsx takes to compile 100+ TypeScript files
//                        (BENCHMARKS.md, start-up);
//   dist/lib/index.mjs   the programmatic entry (package.json `exports`), one ES module importing its
//                        dependencies from node_modules, so a project that uses replsim shares them;
//   dist/types/          its declarations (tsc, tsconfig.build.json), which package.json `exports`
//                        gives as `types`: a consumer's tsc reads them and never replsim's sources.
// `node scripts/build.mjs` builds all (`npm run build`; `npm pack` runs it as `prepack`);
// `--bundles` only the ES modules (a few seconds: `npm ci` and `npm install` run it as the
// `dependencies` script, which, unlike `prepare`, npm never counts as an install script of a
// package installed from a tarball or a checkout); with `--if-stale` only when the CLI's bundle is
// older than the sources (`npm start`). Without esbuild (a checkout installed with
// `npm ci --omit=dev`) `--bundles` only warns: bin/replsim.js then runs the sources through tsx, if
// installed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from '../bin/bundle-fresh.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundlesOnly = process.argv.includes('--bundles');
if (process.argv.includes('--if-stale') && bundleIsFresh(`${root}dist/cli/replsim.mjs`, root) && bundleIsFresh(`${root}dist/lib/index.mjs`, root)) process.exit(0);

let esbuild;
try {
  esbuild = await import('esbuild');
} catch (err) {
  if (!bundlesOnly) throw err;
  console.warn(`replsim: esbuild is not installed (a production install?): the CLI is not bundled; bin/replsim.js will run the sources through tsx`);
  process.exit(0);
}

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', outExtension: { '.js': '.mjs' }, logLevel: 'warning' };

mkdirSync(`${root}dist/cli`, { recursive: true });
await esbuild.build({
  ...common,
  entryPoints: { replsim: `${root}src/cli/main.ts`, 'property-worker': `${root}src/explore/property-worker.ts`, 'whatif-worker': `${root}src/whatif/whatif-worker.ts` },
  // Two folders below the root, like src/cli/main.ts, which reads ../../package.json from its own URL.
  outdir: `${root}dist/cli`,
  // Some dependencies are CommonJS that call require(): give the ES module one.
  banner: { js: "import { createRequire as __replsimRequire } from 'node:module'; const require = __replsimRequire(import.meta.url);" },
  // tinypool starts its workers from its own entry file (dist/entry/worker.js beside its module):
  // it stays a package import, loaded from node_modules (a runtime dependency).
  external: ['tinypool'],
});

await esbuild.build({
  ...common,
  entryPoints: { index: `${root}src/entry/index.ts` },
  outdir: `${root}dist/lib`,
  packages: 'external',
});

if (!bundlesOnly) {
  rmSync(`${root}dist/types`, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('replsim: the declarations did not build (tsc -p tsconfig.build.json)');
    process.exit(1);
  }
}
