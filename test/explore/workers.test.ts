// Property runs split by run index (src/explore/property-runs.ts) and run on worker threads
// (src/explore/workers.ts): any split, joined in run order, gives what one fc.check over all the
// runs gives — the same counts, the same first failing run, the same shrunk counterexample.
import { describe, expect, it } from 'vitest';
import { runProperty } from '../../src/explore/property.js';
import { chunksOf, joinRanges, runRange, type RunSettings } from '../../src/explore/property-runs.js';
import { availableParallelism } from 'node:os';
import { defaultWorkers, runOnWorkers } from '../../src/explore/workers.js';

// Fails at run 8 (two performance primaries after a forced promotion), shrunk to 4 commands.
const FAILING: RunSettings = { runs: 40, seed: 1, clusters: 3, steps: 50, forbid: ['two-primaries'] };
const CLEAN: RunSettings = { runs: 24, seed: 2, clusters: 3, steps: 20 };

describe('property runs split by run index', () => {
  it('ranges of a clean run, joined, equal the whole run (each run drawn as in one fc.check)', () => {
    const whole = runProperty(CLEAN);
    const parts = chunksOf(0, CLEAN.runs, 5).map((c) => runRange(CLEAN, c.from, c.to));
    const joined = joinRanges(CLEAN.seed, CLEAN.runs, parts);
    expect(joined.ok).toBe(true);
    if (!joined.ok) return;
    expect(joined.joined).toEqual({ seed: 2, runs: whole.runs, commands: whole.commands, requests: whole.requests, refused: whole.refused, hazards: whole.hazards, violations: whole.violations, finding: null });
    expect(whole.commands).toBeGreaterThan(0);
  });

  it('ranges of a failing run, joined, give its first failing run with the same shrunk counterexample and replay path', () => {
    const whole = runRange(FAILING, 0, FAILING.runs);
    expect(whole.finding?.id).toBe('two-primaries');
    // Chunks of 3: the failing run is in the middle of a chunk, and later chunks fail too (left out).
    const parts = chunksOf(0, FAILING.runs, 3).map((c) => runRange(FAILING, c.from, c.to));
    expect(parts.filter((p) => p.finding).length).toBeGreaterThan(1);
    const joined = joinRanges(FAILING.seed, FAILING.runs, parts);
    if (!joined.ok) throw new Error(joined.message);
    const { from: _f, to: _t, ...counts } = whole;
    expect(joined.joined).toEqual({ seed: 1, ...counts });
    expect(joined.joined.finding!.run).toBe(whole.runs);
    // The path replays in a whole fc.check: the same failure, alone.
    const replayed = runProperty({ ...FAILING, replayPath: joined.joined.finding!.replay.path });
    expect(replayed.findings[0]?.words).toEqual(whole.finding!.words);
  });

  it('a gap or an overlap between ranges is an error naming the runs', () => {
    const a = runRange(CLEAN, 0, 5);
    const c = runRange(CLEAN, 10, 24);
    const gap = joinRanges(CLEAN.seed, CLEAN.runs, [a, c]);
    expect(gap).toEqual({ ok: false, message: 'runs 6 to 10 are missing' });
    const short = joinRanges(CLEAN.seed, CLEAN.runs, [a]);
    expect(short).toEqual({ ok: false, message: 'runs 6 to 24 are missing' });
    const twice = joinRanges(CLEAN.seed, CLEAN.runs, [a, runRange(CLEAN, 3, 24)]);
    expect(twice).toEqual({ ok: false, message: 'runs 4 to 5 are given twice' });
  });
});

describe('runOnWorkers', () => {
  it('two worker threads give exactly what one gives, a forced failure included', async () => {
    const one = await runOnWorkers({ settings: FAILING, workers: 1 });
    const two = await runOnWorkers({ settings: FAILING, workers: 2, chunk: 3 });
    expect(two.parts.length).toBeGreaterThan(1);
    expect(two.joined).toEqual(one.joined);
    expect(JSON.stringify(two.joined)).toBe(JSON.stringify(one.joined));
    expect(one.joined.finding?.words.length).toBeGreaterThan(0);
  });

  it('by default, one worker thread per 250,000 commands (runs × steps), at most one per core but one', () => {
    // The default `replsim check --runs 100` runs in one thread: a worker's start and its compiling would cost more than it saves.
    const most = Math.max(1, availableParallelism() - 1);
    expect(defaultWorkers(100, 50)).toBe(1);
    expect(defaultWorkers(9999, 50)).toBe(1);
    expect(defaultWorkers(10_000, 50)).toBe(Math.min(2, most));
    expect(defaultWorkers(3000, 80)).toBe(1);
    expect(defaultWorkers(10_000_000, 50)).toBe(most);
  });

  it('a range of runs on two workers equals the same range on one', async () => {
    const range = { from: 7, to: 19 };
    const one = await runOnWorkers({ settings: CLEAN, range, workers: 1 });
    const two = await runOnWorkers({ settings: CLEAN, range, workers: 2, chunk: 4 });
    expect(two.joined).toEqual(one.joined);
    expect(one.joined.runs).toBe(12);
  });
});

describe('explore shards', () => {
  it('deal out the first level: every distinct first-level state is expanded by exactly one shard', async () => {
    const { explore } = await import('../../src/explore/explore.js');
    const whole = explore({ depth: 1, clusters: 2 });
    const firstLevel = whole.distinct - 1;
    expect(firstLevel).toBeGreaterThan(3);
    const shards = [1, 2, 3].map((index) => explore({ depth: 1, clusters: 2, shard: { index, count: 3 } }));
    // Each shard counts the initial state and the first-level states it keeps.
    expect(shards.reduce((n, s) => n + s.distinct - 1, 0)).toBe(firstLevel);
    for (const s of shards) expect(s.visited).toBe(whole.visited);
    // Deeper, the shards together reach every DR role combination the whole search reaches.
    const deep = explore({ depth: 3, clusters: 2 });
    const reached = new Set([1, 2].flatMap((index) => explore({ depth: 3, clusters: 2, shard: { index, count: 2 } }).roleVectors.reached));
    expect([...reached].sort()).toEqual(deep.roleVectors.reached);
  });
});
