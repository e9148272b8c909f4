// Timing helpers for the benchmarks. The machines are shared and noisy, so every figure is a median
// of repeated runs after a warm-up, and every ratio compares two things measured in the same process,
// interleaved (A, B, A, B, ...), so that a burst of load hits both sides alike.
//
// Time is the CPU time of the process (user + system, getrusage), not the wall clock: on a machine
// shared with other jobs the wall clock also counts the time the benchmark waited for a core, which
// says nothing about replsim. CPU time includes V8's helper threads (garbage collection, compiling),
// which are part of the cost. (/proc/thread-self/schedstat would give the main thread alone, but the
// kernel updates it only at scheduler ticks: too coarse for repetitions of a few milliseconds.)
// (bench/ may read clocks: the determinism rules apply to src/ only.)

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

type Gc = (options?: { type: 'major' | 'minor' }) => void;

/**
 * Collects all the garbage it can, to read the heap afterwards (`process.memoryUsage().heapUsed`),
 * when the process was started with --expose-gc (run.ts starts every section so).
 */
export function collect(): void {
  (globalThis as { gc?: Gc }).gc?.();
}

/**
 * A collection of the young generation before a timed repetition, so the short-lived garbage the
 * other side left is not collected on this side's time. Only the young generation: a full `gc()`
 * (`collect`) also throws away compiled code and type feedback, and the repetitions after it
 * measure V8 compiling the code again (the full bench with `gc()` here, 25 November 2026: world
 * throughput 4.5–6.4x its baseline instead of 1.9–2.4x, the explorer 1.8x xstate/graph instead of
 * 0.7x). Asked for by name: until that night this called `gc({ type: 'major' })`, which node 20's
 * V8 (11.3) reads as any truthy argument, a minor collection (`--trace-gc` prints a Scavenge), so
 * the rows have always been measured so; a V8 that reads the options would have made it a full one.
 */
export function settle(): void {
  (globalThis as { gc?: Gc }).gc?.({ type: 'minor' });
}

/** Milliseconds of CPU the process has used so far. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
export const CLOCK = 'process CPU time (user + system)';

/** Milliseconds of CPU taken by `f`. */
export function time(f: () => void): number {
  const t0 = cpuMs();
  f();
  return cpuMs() - t0;
}

/** Wall-clock milliseconds taken by `f`. */
export function wallTime(f: () => void): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

export interface Interleaved {
  /** Per-repetition milliseconds of each side. */
  a: number[];
  b: number[];
  /** median(a) / median(b). */
  ratio: number;
}

/**
 * Runs `a` and `b` alternately: warm-up calls first (unmeasured: `warmA` of a, `warmB` of b), then
 * `reps` measured rounds (the order within a round alternates too). Each call should do the same
 * amount of work every time.
 */
export function interleave(a: () => void, b: () => void, reps: number, warm: { a: number; b: number } = { a: 1, b: 1 }): Interleaved {
  for (let i = 0; i < warm.a; i++) a();
  for (let i = 0; i < warm.b; i++) b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < reps; i++) {
    settle();
    if (i % 2 === 0) {
      ta.push(time(a));
      tb.push(time(b));
    } else {
      tb.push(time(b));
      ta.push(time(a));
    }
  }
  return { a: ta, b: tb, ratio: median(ta) / median(tb) };
}

/**
 * Runs `f` until its CPU time has settled: until the median of the last five runs is within 5% of
 * the five before (V8 compiles a large program over many runs, and CPU time counts its compiler
 * threads), at most `max` runs. Returns how many runs it took.
 */
export function warmUp(f: () => void, { max = 40 }: { max?: number } = {}): number {
  const t: number[] = [];
  for (let i = 0; i < max; i++) {
    t.push(time(f));
    if (t.length >= 10) {
      const last = median(t.slice(-5));
      const before = median(t.slice(-10, -5));
      if (Math.abs(last - before) <= 0.05 * before) return t.length;
    }
  }
  return max;
}

/** "12,345" */
export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
