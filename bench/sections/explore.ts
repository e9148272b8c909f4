// 4. Explorer: distinct states per second, and the time to cover the product space of DR roles on 3
// clusters (every combination of disabled, primary and secondary) through the API, next to
// xstate/graph's getShortestPaths walking the product of three bare role machines (lib/role-product.ts).
import { getShortestPaths } from 'xstate/graph';
import { interleave, median, warmUp } from '../lib/measure.js';
import { emit, notAvailable, type Row } from '../lib/result.js';
import { modesOf, roleProduct } from '../lib/role-product.js';

const quick = process.env.BENCH_QUICK === '1';
const CLUSTERS = 3;
const GOAL = 'not slower than xstate/graph';
const TITLE = `Explorer: cover the DR role product of ${CLUSTERS} clusters`;

interface ExploreResultLike {
  distinct: number;
  visited: number;
  depthReached: number;
  roleVectors?: { covered: number; total: number };
  finding?: { kind: string; id?: string; message: string };
}
type Explore = (o: Record<string, unknown>) => ExploreResultLike;

let explore: Explore | undefined;
let families: readonly string[] | undefined;
let why = '';
try {
  const mod = (await import('../../src/explore/explore.js')) as unknown as { explore?: Explore };
  explore = mod.explore;
  if (!explore) why = 'src/explore/explore.ts does not export explore';
  const commands = (await import('../../src/explore/commands/index.js')) as unknown as { ROLE_FAMILIES?: readonly string[] };
  families = commands.ROLE_FAMILIES;
} catch (e) {
  why = `src/explore/explore.ts cannot be loaded: ${(e as Error).message.split('\n')[0]}`;
}

if (!explore) emit([notAvailable('explore', 4, TITLE, GOAL, why)]);
else {
  const ex = explore;
  const options = { depth: 12, clusters: CLUSTERS, stopWhenRolesCovered: true, capabilities: { kinds: ['dr'] }, ...(families ? { families } : {}) };
  const product = roleProduct(CLUSTERS);
  let r!: ExploreResultLike;
  let paths!: ReturnType<typeof getShortestPaths>;
  const a = () => (r = ex(options));
  const b = () => (paths = getShortestPaths(product.machine, { events: product.events as never }));
  // Both sides measured once the JIT has settled: the explorer runs much more code (every request,
  // every monitor) than bare machines, and its first runs measure V8 compiling it (CPU time counts
  // the compiler's threads: 250–350 ms a run at first, 55–90 ms from about the twentieth).
  const warm = { a: warmUp(a, { max: quick ? 15 : 40 }), b: warmUp(b, { max: quick ? 15 : 40 }) };
  const t = interleave(a, b, quick ? 3 : 7, { a: 0, b: 0 });
  const ms = median(t.a);
  const xsMs = median(t.b);
  const xsModes = new Set(paths.map((p) => modesOf(p.state.value as Record<string, string>))).size;
  const covered = r.roleVectors ? `${r.roleVectors.covered}/${r.roleVectors.total}` : 'unknown';
  const row: Row = {
    id: 'explore',
    section: 4,
    title: TITLE,
    replsim: { name: `explore (${families ? 'role commands' : 'all commands'}, DR), until every role combination is reached`, value: ms, unit: 'ms' },
    baseline: { name: `getShortestPaths over ${product.events.length} events`, value: xsMs, unit: 'ms' },
    ratio: ms / xsMs,
    goal: GOAL,
    met: ms <= xsMs && (!r.roleVectors || r.roleVectors.covered === r.roleVectors.total),
    note: `explorer: ${r.distinct} distinct states (${((r.distinct / ms) * 1000).toFixed(0)}/s), ${r.visited} transitions, depth ${r.depthReached}, role combinations ${covered}; xstate/graph: ${paths.length} states (${((paths.length / xsMs) * 1000).toFixed(0)}/s), ${xsModes} role combinations`,
    detail: { warmUpRuns: warm, explorerMs: t.a, xstateMs: t.b, distinct: r.distinct, visited: r.visited, depthReached: r.depthReached, roleVectors: r.roleVectors, finding: r.finding?.message, xstateStates: paths.length, xstateRoleCombinations: xsModes, options },
  };
  emit([row]);
}
