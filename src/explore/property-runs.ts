// Property runs split by run index, and joined back by run order. fast-check draws every run from
// the seed and its index alone (see runsFrom in src/check/property.ts), so a range of runs can run
// anywhere — on a worker thread, in another CI job — and the ranges, joined in run order up to the
// first failing run, give exactly what one `fc.check` over all the runs gives: the same counts, the
// same first failing run, the same shrunk counterexample (shrinking depends on the failing value only).
import { runProperty, type Counterexample, type PropertyOptions, type RunCounts } from './property.js';

/** What a range of runs needs: plain data only, so that it crosses to a worker thread or into a file. */
export interface RunSettings {
  /** Runs in the whole run space (fast-check's numRuns); a range is a part of them. */
  runs: number;
  seed: number;
  clusters?: number;
  steps?: number;
  forbid?: string[];
  safe?: boolean;
  shrink?: boolean;
  families?: string[];
  weights?: Record<string, number>;
  capabilities?: PropertyOptions['capabilities'];
  /** The scenario every run starts from (`--from`), built in each process before its runs (start.ts). */
  from?: PropertyOptions['from'];
}

/** A counterexample as plain JSON data: the commands themselves stay behind (their words and scenario travel). */
export type PortableCounterexample = Omit<Counterexample, 'commands'>;

/** The runs of indexes `from` (from 0) to `to` (excluded), stopped at the first failing one. */
export interface RangeResult extends RunCounts {
  from: number;
  to: number;
  /** The first failing run of the range, shrunk (its `run` counts from 1 over the whole run space). */
  finding: PortableCounterexample | null;
}

/** Runs the range in this thread. An empty range runs nothing. */
export function runRange(settings: RunSettings, from: number, to: number, onProgress?: PropertyOptions['onProgress']): RangeResult {
  const empty: RangeResult = { from, to, runs: 0, commands: 0, requests: 0, refused: 0, hazards: {}, violations: {}, finding: null };
  if (to <= from) return empty;
  const r = runProperty({ ...settings, range: { from, to }, onProgress });
  const found = r.findings[0];
  return { from, to, runs: r.runs, commands: r.commands, requests: r.requests, refused: r.refused, hazards: r.hazards, violations: r.violations, finding: found ? portable(found) : null };
}

/**
 * The counterexample without its command objects, through JSON: what a worker thread or a shard
 * file gives back, so one worker and many give byte-identical results.
 */
function portable(found: Counterexample): PortableCounterexample {
  const { commands: _commands, ...rest } = found;
  return JSON.parse(JSON.stringify(rest)) as PortableCounterexample;
}

/** Ranges joined in run order: the whole run's counts and its first counterexample. */
export interface JoinedRuns extends RunCounts {
  seed: number;
  finding: PortableCounterexample | null;
}

/**
 * Joins ranges of runs `0 .. total` in run order. The whole run stops at its first failing run, so
 * the counts are summed up to the first range with a counterexample, and later ranges are left out
 * (a later range's runs would not have run). Ranges must follow each other without a gap up to
 * there; a gap is an error naming the missing runs.
 */
export function joinRanges(seed: number, total: number, parts: readonly RangeResult[]): { ok: true; joined: JoinedRuns } | { ok: false; message: string } {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  const joined: JoinedRuns = { seed, runs: 0, commands: 0, requests: 0, refused: 0, hazards: {}, violations: {}, finding: null };
  let next = 0;
  for (const part of sorted) {
    if (part.to <= part.from) continue;
    if (part.from !== next) return { ok: false, message: part.from > next ? `runs ${next + 1} to ${part.from} are missing` : `runs ${part.from + 1} to ${Math.min(next, part.to)} are given twice` };
    joined.runs += part.runs;
    joined.commands += part.commands;
    joined.requests += part.requests;
    joined.refused += part.refused;
    addTally(joined.hazards, part.hazards);
    addTally(joined.violations, part.violations);
    if (part.finding) {
      joined.finding = part.finding;
      return { ok: true, joined };
    }
    next = part.to;
  }
  if (next !== total) return { ok: false, message: `runs ${next + 1} to ${total} are missing` };
  return { ok: true, joined };
}

function addTally(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  // Ids come from the catalogue, but a shard file is input: never index a plain object by a name like __proto__.
  for (const [id, n] of Object.entries(from)) {
    if (!Object.hasOwn(into, id) && (id === '__proto__' || id === 'constructor' || id === 'prototype')) continue;
    into[id] = (Object.hasOwn(into, id) ? into[id] : 0) + n;
  }
}

/** Contiguous ranges of at most `size` runs covering `from .. to`, in run order. */
export function chunksOf(from: number, to: number, size: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let a = from; a < to; a += size) out.push({ from: a, to: Math.min(to, a + size) });
  return out;
}
