// 6. CLI start-up: `node bin/replsim.js run` on a one-step scenario, next to `node -e 0`, by wall
// clock (what a user or a CI job waits for), interleaved, medians.
//
// It also measures what a prebuilt bundle would give: the CLI and its dependencies bundled by esbuild
// (tsx's own dependency) into one file in node_modules/.cache/replsim-bench/, run like bin/replsim.js
// but without tsx. That build is only made here, to measure it, and removed afterwards; see
// BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/measure.js';
import { emit, type Row } from '../lib/result.js';

const quick = process.env.BENCH_QUICK === '1';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const SCENARIO = `name: one step
description: The smallest scenario, for the start-up benchmark.
seed: 1
expect: pass
clusters:
  east: {}
steps:
  - name: read the DR status
    request: GET sys/replication/dr/status
    on: east
    token: none
    expect:
      status: 200
`;

function wall(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  return ms;
}

/** Bundles the CLI with esbuild; returns the launcher to run, or why it could not. */
async function bundle(cache: string): Promise<{ launcher: string } | { why: string }> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    return { why: `esbuild not installed: ${(e as Error).message}` };
  }
  // main.ts reads ../../package.json from its own URL: the bundle sits two levels down, beside a copy.
  const out = join(cache, 'dist', 'cli', 'replsim.mjs');
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(cache, 'package.json'));
  await esbuild.build({
    stdin: {
      contents: [
        "import { main } from './src/cli/main.ts';",
        'const io = { out: (l) => process.stdout.write(l + "\\n"), err: (l) => process.stderr.write(l + "\\n"), stdout: process.stdout, env: process.env };',
        'process.exitCode = await main(process.argv.slice(2), io);',
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    // Bundled CommonJS dependencies call require() for Node's modules: give the ES module one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return { launcher: out };
}

const dir = mkdtempSync(join(tmpdir(), 'replsim-bench-'));
const cache = join(root, 'node_modules', '.cache', 'replsim-bench');
try {
  const file = join(dir, 'one-step.yaml');
  writeFileSync(file, SCENARIO);
  const cli = () => wall(process.execPath, ['bin/replsim.js', 'run', '--quiet', file]);
  const bare = () => wall(process.execPath, ['-e', '0']);
  const built = await bundle(cache);
  const bundled = 'launcher' in built ? () => wall(process.execPath, [built.launcher, 'run', '--quiet', file]) : null;

  // Warm the disk cache and tsx's transform cache once, then interleave.
  cli();
  bare();
  bundled?.();
  const reps = quick ? 3 : 7;
  const t = { cli: [] as number[], bare: [] as number[], bundled: [] as number[] };
  for (let i = 0; i < reps; i++) {
    t.cli.push(cli());
    t.bare.push(bare());
    if (bundled) t.bundled.push(bundled());
  }
  const ms = median(t.cli);
  const bareMs = median(t.bare);
  const rows: Row[] = [
    {
      id: 'startup',
      section: 6,
      title: 'CLI start-up: replsim run on a one-step scenario',
      replsim: { name: 'node bin/replsim.js run (tsx)', value: ms, unit: 'ms' },
      baseline: { name: 'node -e 0', value: bareMs, unit: 'ms' },
      ratio: ms / bareMs,
      goal: 'reported (no goal set)',
      met: null,
      note: bundled
        ? `one esbuild bundle (dependencies included) run without tsx: ${median(t.bundled).toFixed(0)} ms (${(median(t.bundled) / bareMs).toFixed(1)}x node -e 0)`
        : `bundle not measured: ${(built as { why: string }).why}`,
      detail: { cliMs: t.cli, bareMs: t.bare, bundledMs: t.bundled, clock: 'wall' },
    },
  ];
  emit(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}
