// `npm run fuzz [-- --requests N --seed S]`: the long API fuzz (default 100,000 requests), with the
// built-in prototypes frozen. Prints the figures and exits 1 on any failure. See api-fuzz.ts.
import { freezePrototypes, fuzz } from './api-fuzz.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} must be a positive whole number`);
  return v;
}

const requests = arg('requests', 100_000);
const seed = arg('seed', 14);
freezePrototypes();
const started = performance.now();
const stats = await fuzz({ requests, seed });
const seconds = (performance.now() - started) / 1000;
const statuses = Object.entries(stats.statuses)
  .map(([s, n]) => `${s}: ${n}`)
  .join(', ');
console.log(`API fuzz, seed ${seed}: ${stats.requests} requests in ${stats.sequences} sequences, ${seconds.toFixed(1)} s (${Math.round(stats.requests / seconds)} requests/s)`);
console.log(`  throws ${stats.throws}, prototype changes ${stats.prototypeChanges}, unexplained 5xx ${stats.unexplained5xx}, wrong shape ${stats.badShape}, refused but changed ${stats.refusedButChanged}, history failures ${stats.historyFailures}`);
console.log(`  statuses: ${statuses}`);
for (const f of stats.failures) console.log(`  FAIL ${f}`);
process.exitCode = stats.failures.length === 0 ? 0 : 1;
