#!/usr/bin/env node
// Runs `replsim check` over a grid of seeds, one process at a time, and reports each cell's verdict
// and wall time (the CLI's own output goes to out/<grid>/seed-S.txt, a counterexample to
// out/<grid>/seed-S/counterexample.yaml). Exit 1 when any cell fails, 0 when all pass.
//
//   npm run check:nightly                 # the large grid: seeds 1-60, 31337, 987654321, 20260101 at 3000 runs x 80 steps on 5 clusters, then 20000 runs of seed 1
//   node scripts/check-grid.mjs --seeds 1-5 --runs 300      # any grid: --seeds A-B or A,B,C; --runs, --clusters, --steps, --out
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'replsim.js');

/** "1-40" or "2,3,7" → numbers. */
function seedList(text) {
  const out = [];
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`--seeds takes A-B or A,B,C, not "${text}"`);
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    for (let s = a; s <= b; s++) out.push(s);
  }
  return out;
}

function parse(argv) {
  const o = { nightly: false, seeds: [1], runs: 3000, clusters: 5, steps: 80, out: 'out/check-grid' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--nightly') o.nightly = true;
    else if (flag === '--seeds') (o.seeds = seedList(value)), i++;
    else if (flag === '--runs' || flag === '--clusters' || flag === '--steps') (o[flag.slice(2)] = Number(value)), i++;
    else if (flag === '--out') (o.out = value), i++;
    else throw new Error(`unknown option ${flag} (known: --nightly, --seeds, --runs, --clusters, --steps, --out)`);
  }
  return o;
}

/** The cells of a grid: [runs, clusters, steps, seed]. */
function cells(o) {
  if (!o.nightly) return o.seeds.map((s) => ({ runs: o.runs, clusters: o.clusters, steps: o.steps, seed: s }));
  // The nightly grid: every seed 1-60 and three that once found a bug at the README's nightly
  // budget, then one long run.
  return [...seedList('1-60,31337,987654321,20260101').map((s) => ({ runs: 3000, clusters: 5, steps: 80, seed: s })), { runs: 20000, seed: 1 }];
}

let o;
try {
  o = parse(process.argv.slice(2));
} catch (e) {
  console.error(`check-grid: ${e.message}`);
  process.exit(2);
}
if (o.nightly && o.out === 'out/check-grid') o.out = 'out/nightly';
mkdirSync(o.out, { recursive: true });
const results = [];
for (const c of cells(o)) {
  const shown = ['check', '--runs', String(c.runs), '--seed', String(c.seed)];
  if (c.clusters !== undefined) shown.push('--clusters', String(c.clusters));
  if (c.steps !== undefined) shown.push('--steps', String(c.steps));
  const args = [...shown, '--out', join(o.out, `seed-${c.seed}-runs-${c.runs}`)];
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  writeFileSync(join(o.out, `seed-${c.seed}-runs-${c.runs}.txt`), output);
  const verdict = output.split('\n').find((l) => /^(valid|invalid)\b/.test(l.replace(/\x1b\[[0-9;]*m/g, ''))) ?? `exit ${run.status}`;
  results.push({ ...c, status: run.status, seconds });
  console.log(`replsim ${shown.join(' ')}  exit ${run.status}  ${seconds.toFixed(1)}s  ${verdict.replace(/\x1b\[[0-9;]*m/g, '')}`);
}
const failed = results.filter((r) => r.status !== 0);
console.log(`${results.length - failed.length} of ${results.length} passed${failed.length ? `; failed: seeds ${failed.map((r) => `${r.seed} (${r.runs} runs)`).join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
