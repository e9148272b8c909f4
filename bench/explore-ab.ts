// The explorer row (§4) for one checkout, three ways: `node --expose-gc --import tsx bench/explore-ab.ts [checkout]`.
// 1. As the bench measures it: one warm-up each, then 3 rounds with a forced collection before each
//    (bench/lib/measure.ts interleave), CPU time, medians.
// 2. Runs one after the other with no forced collection (16 pairs), the series from cold to warm,
//    and the medians of the last 9: what a long-running process (serve, workers) pays.
// 3. After those, 5 more rounds with a forced collection before each: the cost of a collection.
// Every run covers the DR role product of 3 clusters, as the bench row does (BENCHMARKS.md §4:
// after a forced full collection V8 drops much optimised code and compiles it again, so the bench's
// rounds measure a good part of compilation).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getShortestPaths } from 'xstate/graph';
import { collect, interleave, median, time } from './lib/measure.js';

const root = resolve(process.argv[2] ?? '.');
const load = (p: string) => import(pathToFileURL(resolve(root, p)).href);
const { explore } = await load('src/explore/explore.ts');
const { ROLE_FAMILIES } = await load('src/explore/commands/index.ts');
const { roleProduct } = await load('bench/lib/role-product.ts');
if (!(globalThis as { gc?: unknown }).gc) console.warn('no --expose-gc: the forced collections are skipped');

const options = { depth: 12, clusters: 3, stopWhenRolesCovered: true, capabilities: { kinds: ['dr'] }, families: ROLE_FAMILIES };
const product = roleProduct(3);
const a = () => explore(options);
const b = () => getShortestPaths(product.machine, { events: product.events });
const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(' ');
const line = (what: string, ta: number[], tb: number[]) =>
  `${what}: explorer ${median(ta).toFixed(0)} ms, xstate/graph ${median(tb).toFixed(0)} ms, ratio ${(median(ta) / median(tb)).toFixed(2)}x  (explorer ${ms(ta)} | xstate ${ms(tb)})`;

const bench = interleave(a, b, 3, { a: 1, b: 2 });
console.log(line('as the bench (1 warm-up, a collection before each of 3 rounds)', bench.a, bench.b));

const sa: number[] = [];
const sb: number[] = [];
for (let i = 0; i < 16; i++) {
  sa.push(time(a));
  sb.push(time(b));
}
console.log(line('one after the other, no collection (medians of the last 9 of 16)', sa.slice(-9), sb.slice(-9)));
console.log(`  series: explorer ${ms(sa)} | xstate ${ms(sb)}`);

const ca: number[] = [];
const cb: number[] = [];
for (let i = 0; i < 5; i++) {
  collect();
  ca.push(time(a));
  collect();
  cb.push(time(b));
}
console.log(line('then warm, a collection before each run (5 rounds)', ca, cb));
