// A long history.jsonl for the replay benchmark, made quickly but faithfully. A live world runs a
// periodic workload for a few periods; the log of one period is then extended period by period:
// every field of every event is the same as in the period before, except numbers that move by a
// fixed step (times, sequence numbers, WAL indexes, the value written). The bench checks that
// rule against the live periods before it writes a single extrapolated line, so the file is exactly
// the log the live world would have written had it run that long.
import { closeSync, openSync, writeSync } from 'node:fs';
import prand from 'pure-rand';
import type { SimEvent } from '../../src/areas/core/events.js';
import { reducers, type World } from '../../src/world.js';
import { canonicalJson, hashOf } from '../../src/kernel/canonical.js';
import { applyEvent } from '../../src/kernel/engine.js';
import { HistoryChain } from '../../src/kernel/persist.js';
import { destroy, LATENCY_MS, replicationSet, rootOf, write } from './worlds.js';

/** The workload: writes round a fixed set of keys, and every `rounds` rounds every key deleted (metadata delete). */
export interface Workload {
  keys: number;
  /** Rounds of writes (each key once) before the round of deletes: at most this many versions a key. */
  rounds: number;
  secondaries: number;
}

export const REPLAY_WORKLOAD: Workload = { keys: 100, rounds: 10, secondaries: 3 };

/** Runs one period of the workload on the live world: `rounds` rounds of writes, one of deletes, each op delivered. */
export function runPeriod(w: World, load: Workload, counter: { v: number }): void {
  const token = rootOf(w, 'p');
  for (let r = 0; r < load.rounds; r++)
    for (let k = 0; k < load.keys; k++) {
      write(w, 'p', token, `app/k${k}`, { v: counter.v++ });
      w.advance(LATENCY_MS);
    }
  for (let k = 0; k < load.keys; k++) {
    destroy(w, 'p', token, `app/k${k}`);
    w.advance(LATENCY_MS);
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The step of every number from `a` to `b`, or an error naming what is not periodic. */
function stepOf(a: Json, b: Json, path: string): Json {
  if (typeof a === 'number' && typeof b === 'number') return b - a;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (a !== b) throw new Error(`not periodic at ${path}: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
    return null;
  }
  if (Array.isArray(a) !== Array.isArray(b)) throw new Error(`not periodic at ${path}`);
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) throw new Error(`not periodic at ${path}: keys ${ka} then ${kb}`);
  const out: Record<string, Json> = {};
  for (const k of ka) out[k] = stepOf((a as Record<string, Json>)[k], (b as Record<string, Json>)[k], `${path}.${k}`);
  return Array.isArray(a) ? Object.values(out) : out;
}

/** How many raw draws move a generator from one saved state to another (a bounded search). */
function drawsBetween(from: readonly number[], to: readonly number[]): number {
  const g = prand.xoroshiro128plus.fromState(from);
  const target = to.join(',');
  for (let n = 0; n <= 10_000_000; n++) {
    if ((g as unknown as { getState(): number[] }).getState().join(',') === target) return n;
    g.unsafeNext();
  }
  throw new Error('the generator did not reach the next period\'s position within 10,000,000 draws');
}

/** A saved generator state moved on by `n` raw draws. */
function advanced(from: readonly number[], n: number): number[] {
  const g = prand.xoroshiro128plus.fromState(from);
  for (let i = 0; i < n; i++) g.unsafeNext();
  return (g as unknown as { getState(): number[] }).getState().slice();
}

/** `base` moved `n` steps. */
function shifted(base: Json, step: Json, n: number): Json {
  if (typeof base === 'number') return base + (step as number) * n;
  if (base === null || typeof base !== 'object') return base;
  if (Array.isArray(base)) return base.map((v, i) => shifted(v, (step as Json[])[i], n));
  const out: Record<string, Json> = {};
  for (const k of Object.keys(base)) out[k] = shifted(base[k], (step as Record<string, Json>)[k], n);
  return out;
}

export interface GeneratedHistory {
  events: number;
  /** The live world after its periods, and how many of the file's events it covers. */
  live: World;
  liveEvents: number;
  periodEvents: number;
}

/**
 * Writes a history of at least `minEvents` events to `file`: the live world's log (set-up and
 * `livePeriods` periods, the last three used to check the rule), then extrapolated periods.
 */
export function generateHistory(file: string, minEvents: number, load: Workload = REPLAY_WORKLOAD, livePeriods = 4): GeneratedHistory {
  const w = replicationSet('dr', load.secondaries);
  const counter = { v: 0 };
  const starts: number[] = [];
  const generator: number[][] = [];
  for (let i = 0; i < livePeriods; i++) {
    starts.push(w.log.length);
    generator.push(w.generatorState());
    runPeriod(w, load, counter);
  }
  starts.push(w.log.length);
  generator.push(w.generatorState());
  // The history's closing line records the generator's position: a period draws the same number
  // of values each time (one request_id per answered write), found by stepping from one period's
  // start to the next; the extrapolated periods move it on by as many.
  const draws = drawsBetween(generator[livePeriods - 1], generator[livePeriods]);
  if (drawsBetween(generator[livePeriods - 2], generator[livePeriods - 1]) !== draws) throw new Error('the periods draw different numbers of values');
  const log = JSON.parse(JSON.stringify(w.log)) as Json[];
  const period = (i: number) => log.slice(starts[i], starts[i + 1]);
  const len = starts[1] - starts[0];
  for (let i = 1; i < livePeriods; i++) if (starts[i + 1] - starts[i] !== len) throw new Error(`periods differ in length: ${len} and ${starts[i + 1] - starts[i]} events`);
  // The step from the second-last to the last live period must carry the one before it onto it.
  const a = period(livePeriods - 3);
  const b = period(livePeriods - 2);
  const c = period(livePeriods - 1);
  const step = b.map((e, j) => stepOf(e, c[j], `event ${j}`));
  a.forEach((e, j) => {
    if (canonicalJson(shifted(e, step[j], 1)) !== canonicalJson(b[j])) throw new Error(`period ${livePeriods - 2} is not period ${livePeriods - 3} moved by one step (event ${j})`);
  });

  const fd = openSync(file, 'w');
  let buf = '';
  const flush = () => {
    writeSync(fd, buf);
    buf = '';
  };
  const chain = new HistoryChain();
  for (const e of log) buf += chain.line(e);
  flush();
  let events = log.length;
  // The state the whole file folds to, for its closing line: the live state, then every extrapolated event.
  let state = w.state;
  let periods = 0;
  for (let n = 1; events < minEvents; n++) {
    for (let j = 0; j < len; j++) {
      const e = shifted(c[j], step[j], n);
      buf += chain.line(e);
      state = applyEvent(state, e as unknown as SimEvent, reducers);
    }
    events += len;
    periods++;
    flush();
  }
  buf += chain.close({ events, rng: advanced(generator[livePeriods], draws * periods), stateHash: hashOf(state) });
  flush();
  closeSync(fd);
  return { events, live: w, liveEvents: log.length, periodEvents: len };
}

/** What a replayed world of this workload must show after `events` events: every write delivered. */
export function checkReplayed(w: World): void {
  const p = w.state.clusters.named('p');
  for (const c of w.state.clusters) {
    if (c.name === 'p') continue;
    if (c.replication.dr.lastRemoteWal !== p.wal.last) throw new Error(`${c.name} replayed to WAL ${c.replication.dr.lastRemoteWal}, the primary's is ${p.wal.last}`);
  }
}

