// 2. Replay: events per second rebuilding a world from a history.jsonl of at least a million events
// (what `replsim replay` does: read, parse, fold, hash), next to the floor of reading the same file
// and JSON.parse-ing each line. The history is a DR set (a primary, three secondaries) under a
// periodic KV workload: see lib/history.ts.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimEvent } from '../../src/areas/core/events.js';
import { isKnownEventType, World } from '../../src/world.js';
import { parseHistory, readHistory, toJsonl } from '../../src/kernel/persist.js';
import { settle, median, time, wallTime } from '../lib/measure.js';
import { checkReplayed, generateHistory, REPLAY_WORKLOAD } from '../lib/history.js';
import { emit, type Row } from '../lib/result.js';

const quick = process.env.BENCH_QUICK === '1';
const MIN_EVENTS = quick ? 200_000 : 1_000_000;

const dir = mkdtempSync(join(tmpdir(), 'replsim-bench-'));
const file = join(dir, 'history.jsonl');
try {
  let generated!: ReturnType<typeof generateHistory>;
  const genMs = time(() => (generated = generateHistory(file, MIN_EVENTS)));
  const bytes = statSync(file).size;

  // The replay path is the one the live world's log takes too: its hash must come back.
  const live = generated.live;
  const again = World.replay(parseHistory<SimEvent>(toJsonl(live.log, live.history().end!)));
  if (again.stateHash() !== live.stateHash()) throw new Error('replaying the live prefix gave another state hash');

  let lines = 0;
  const floor = () => {
    const text = readFileSync(file, 'utf8');
    const parts = text.split('\n');
    lines = 0;
    for (const l of parts)
      if (l !== '') {
        JSON.parse(l);
        lines++;
      }
  };
  let hash = '';
  let parseMs = 0;
  let parseWallMs = 0;
  let foldMs = 0;
  const replay = () => {
    let events!: ReturnType<typeof readHistory<SimEvent>>;
    // Reading checks the hash chain on a second thread (src/kernel/chain-check.ts): its CPU is counted
    // here with the rest; what the user waits for is the wall time, reported beside it.
    parseWallMs = wallTime(() => (parseMs = time(() => (events = readHistory<SimEvent>(file, isKnownEventType)))));
    let w!: World;
    foldMs = time(() => {
      w = World.replay(events);
      hash = w.stateHash();
    });
    checkReplayed(w);
  };

  // Warm both paths on the file (the page cache too), then floor, replay, floor, replay, floor.
  floor();
  const floors: number[] = [];
  const replays: number[] = [];
  const parses: number[] = [];
  const parseWalls: number[] = [];
  const folds: number[] = [];
  const floorWalls: number[] = [];
  const reps = quick ? 1 : 3;
  for (let i = 0; i < reps; i++) {
    settle();
    floorWalls.push(wallTime(() => floors.push(time(floor))));
    settle();
    replays.push(time(replay));
    parses.push(parseMs);
    parseWalls.push(parseWallMs);
    folds.push(foldMs);
  }
  settle();
  floorWalls.push(wallTime(() => floors.push(time(floor))));
  // One line per event, then the closing line (hash chain, state hash, generator).
  if (lines !== generated.events + 1) throw new Error(`the file has ${lines} lines, not ${generated.events} events and the closing line`);
  lines = generated.events;

  const ms = median(replays);
  // The floor at its fastest: in one process the same reading and parsing took 0.8 to 2.0 s (the
  // heap the run before left changes when the old generation is collected: `settle` empties only
  // the young one), so a median floor could flatter the ratio by half; the best floor is the
  // conservative one. A full collection before each repetition (`collect`) was tried: the floors
  // then kept to 0.96–1.33 s, the replays took 2.8 s instead of 2.5 (the code compiled again after
  // it), and the ratio read 2.9–3.3x as it does without (25 November 2026).
  const floorMs = Math.min(...floors);
  const ratio = ms / floorMs;
  const perEvent = (x: number) => (x / lines) * 1000;
  const row: Row = {
    id: 'replay',
    section: 2,
    title: `Replay of a ${(lines / 1e6).toFixed(2)}M-event history.jsonl (${(bytes / 2 ** 20).toFixed(0)} MiB)`,
    replsim: { name: 'read, parse, fold, hash', value: (lines / ms) * 1000, unit: 'events/s' },
    baseline: { name: 'read + JSON.parse each line', value: (lines / floorMs) * 1000, unit: 'events/s' },
    ratio,
    goal: 'ratio <= 3x',
    met: ratio <= 3,
    note: `per event: ${perEvent(median(parses)).toFixed(1)} us reading and parsing (CPU of both threads; ${perEvent(median(parseWalls)).toFixed(1)} us of wall time, the floor's ${perEvent(Math.min(...floorWalls)).toFixed(1)}), ${perEvent(median(folds)).toFixed(1)} us folding; floor ${perEvent(floorMs).toFixed(1)} us (the fastest of ${floors.length}: ${floors.map((f) => perEvent(f).toFixed(1)).join(', ')})`,
    detail: {
      events: lines,
      bytes,
      workload: REPLAY_WORKLOAD,
      eventsPerPeriod: generated.periodEvents,
      liveEvents: generated.liveEvents,
      generateMs: genMs,
      replayMs: replays,
      parseMs: parses,
      parseWallMs: parseWalls,
      foldMs: folds,
      floorMs: floors,
      floorWallMs: floorWalls,
      stateHash: hash,
    },
  };
  emit([row]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
