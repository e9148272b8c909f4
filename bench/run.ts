// `npm run bench`: runs every benchmark section in a process of its own (a clean heap, --expose-gc,
// one section's JIT and garbage not weighing on the next), prints the table with each figure beside
// its goal, and writes bench/results.json. Not part of `npm test`.
//
//   npm run bench                    every section
//   npm run bench -- --quick         fewer repetitions and a smaller replay history (a smoke test)
//   npm run bench -- --only replay,explore
//   npm run bench -- --only scaling          issue 15's curves (keys, clusters, heap)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOCK, fmt } from './lib/measure.js';
import { RESULT_MARK, type Row } from './lib/result.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** Sections in run order, with the most each may take before it is stopped (ms). */
const SECTIONS: { name: string; issue: number; title: string; timeoutMs: number; heapMb?: number }[] = [
  { name: 'throughput', issue: 1, title: 'World throughput', timeoutMs: 150_000 },
  { name: 'replay', issue: 2, title: 'Replay', timeoutMs: 180_000, heapMb: 6144 },
  { name: 'property', issue: 3, title: 'Property runs', timeoutMs: 180_000 },
  { name: 'explore', issue: 4, title: 'Explorer', timeoutMs: 90_000 },
  { name: 'memory', issue: 5, title: 'Scale and memory', timeoutMs: 120_000 },
  { name: 'startup', issue: 6, title: 'CLI start-up', timeoutMs: 90_000 },
  { name: 'serve', issue: 7, title: 'replsim serve over HTTP', timeoutMs: 120_000 },
  { name: 'kv-versions', issue: 5, title: 'One KV-v2 key rewritten (max_versions)', timeoutMs: 90_000 },
  { name: 'scaling', issue: 8, title: 'Scaling: keys, clusters, replay and heap', timeoutMs: 300_000, heapMb: 4096 },
  { name: 'whatif', issue: 9, title: 'replsim whatif on a runbook', timeoutMs: 180_000 },
  { name: 'session-memory', issue: 10, title: 'Memory of long sessions and runs', timeoutMs: 600_000, heapMb: 4096 },
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',').filter(Boolean) : null;
if (only) for (const o of only) if (!SECTIONS.some((s) => s.name === o)) throw new Error(`unknown section "${o}" (sections: ${SECTIONS.map((s) => s.name).join(', ')})`);

interface SectionRun {
  rows: Row[];
  ms: number;
  error?: string;
}

function runSection(s: (typeof SECTIONS)[number]): Promise<SectionRun> {
  const t0 = performance.now();
  const nodeArgs = ['--expose-gc', ...(s.heapMb ? [`--max-old-space-size=${s.heapMb}`] : []), '--import', 'tsx', join(here, 'sections', `${s.name}.ts`)];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: root, env: { ...process.env, BENCH_QUICK: quick ? '1' : '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), s.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      const line = out.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (line) return resolve({ rows: JSON.parse(line.slice(RESULT_MARK.length)) as Row[], ms });
      const why = signal === 'SIGKILL' ? `stopped after ${s.timeoutMs / 1000} s` : `exited ${code}: ${(err.trim().split('\n').find((l) => /Error/.test(l)) ?? err.trim().split('\n').pop() ?? '').slice(0, 300)}`;
      resolve({ rows: [], ms, error: why });
    });
  });
}

function figure(f: Row['replsim'] | undefined): string {
  if (!f) return '—';
  const digits = f.value < 10 ? 1 : 0;
  return `${fmt(f.value, digits)} ${f.unit}`;
}

function verdict(r: Row): string {
  return r.met === null ? (r.replsim ? '—' : 'n/a') : r.met ? 'met' : 'MISSED';
}

function table(rows: Row[]): string {
  const head = ['#', 'benchmark', 'replsim', 'baseline', 'ratio', 'goal', 'verdict'];
  const body = rows.map((r) => [String(r.section), r.title, r.replsim ? figure(r.replsim) : (r.note ?? 'not measured'), figure(r.baseline), r.ratio !== undefined ? `${r.ratio.toFixed(2)}x` : '—', r.goal, verdict(r)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n');
}

const started = new Date();
const loadBefore = loadavg()[0];
const t0 = performance.now();
const rows: Row[] = [];
const sections: Record<string, { ms: number; error?: string }> = {};
for (const s of SECTIONS) {
  if (only && !only.includes(s.name)) continue;
  process.stderr.write(`bench: ${s.issue}. ${s.title}...`);
  const r = await runSection(s);
  sections[s.name] = { ms: r.ms, ...(r.error ? { error: r.error } : {}) };
  process.stderr.write(` ${(r.ms / 1000).toFixed(0)} s${r.error ? ` (failed: ${r.error})` : ''}\n`);
  if (r.error) rows.push({ id: s.name, section: s.issue, title: s.title, replsim: null, goal: '—', met: null, note: `failed: ${r.error}` });
  rows.push(...r.rows);
}
const totalMs = performance.now() - t0;

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
  freeGiB: +(freemem() / 2 ** 30).toFixed(1),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  // Other jobs share the machine: its 1-minute load average before and after the run.
  loadAverage: [+loadBefore.toFixed(2), +loadavg()[0].toFixed(2)],
};

console.log(table(rows));
console.log('');
for (const r of rows) if (r.note && r.replsim) console.log(`${r.section}. ${r.title}: ${r.note}`);
console.log('');
console.log(
  `Times are ${CLOCK}, medians of interleaved repetitions (start-up: wall clock). ${machine.cpus} CPUs, node ${machine.node}, load average ${machine.loadAverage.join(' then ')}; ${(totalMs / 1000).toFixed(0)} s in all${quick ? ' (--quick)' : ''}.`,
);

const out = join(here, 'results.json');
writeFileSync(
  out,
  JSON.stringify({ date: started.toISOString(), quick, clock: CLOCK, totalMs, machine, sections, rows }, null, 2) + '\n',
);
console.log(`Wrote ${out}`);
