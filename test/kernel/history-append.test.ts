// history.jsonl written as the run goes (HistoryAppender): once closed it is byte for byte the file
// a whole-log write gave; stopped before its end it is read back as incomplete, with the events it
// had, and replays to the world as it was then; a last line cut short is left out; any other flaw
// is still an error. The run id read back from the file is the one the writer gave.
import { appendFileSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimEvent } from '../../src/areas/core/events.js';
import { describe, expect, it } from 'vitest';
import { HistoryAppender, HistoryFileError, readHistory, runIdOf, toJsonl } from '../../src/kernel/persist.js';
import { isKnownEventType, World } from '../../src/world.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { sameRun } from '../../src/report/run-id.js';

const dir = mkdtempSync(join(tmpdir(), 'replsim-append-'));

function writes(w: World, from: number, to: number): void {
  const token = w.tokenNamed('east', 'root');
  for (let i = from; i < to; i++) w.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { n: i } }, token });
}

describe('HistoryAppender', () => {
  it.each(['01-dr-setup.yaml', '07-dr-unplanned-failover.yaml', '24-sync-dr-failover.yaml'])('following %s step by step gives the bytes of a whole-log write', async (name) => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'scenarios', name), 'utf8');
    const loaded = loadScenario(text, name);
    if (!loaded.ok) throw new Error(`${name} does not load`);
    const file = join(dir, `${name}.jsonl`);
    let appender: HistoryAppender | undefined;
    let world: World | undefined;
    const result = await runScenario(loaded.scenario, {
      onWorld: (w) => {
        world = w;
        appender = new HistoryAppender(file);
        appender.follow(w.log);
      },
      onStep: () => appender!.follow(world!.log),
    });
    const id = appender!.close(result.world.log, result.world.history().end!);
    const h = result.world.history();
    expect(readFileSync(file, 'utf8')).toBe(toJsonl(h.events, h.end!));
    expect(sameRun(runIdOf(readHistory(file, isKnownEventType)), id)).toBe(true);
  });

  it('stopped before its end: read as incomplete, every committed event replays; without asking, it is still an error', () => {
    const w = World.create({ east: { mounts: { secret: 'kv-v2' } } }, { seed: 5 });
    const file = join(dir, 'stopped.jsonl');
    const appender = new HistoryAppender(file);
    appender.follow(w.log);
    writes(w, 0, 10);
    appender.follow(w.log);
    const hashThen = w.stateHash();
    appender.release();
    writes(w, 10, 12); // after the stop: never written
    const h = readHistory<SimEvent>(file, isKnownEventType, { incomplete: true });
    expect(h.end).toBeNull();
    expect(h.incomplete).toEqual({ cutShort: false });
    expect(h.events.length).toBe(11);
    expect(World.replay(h).stateHash()).toBe(hashThen);
    expect(runIdOf(h)).toEqual(appender.id(null));
    expect(() => readHistory(file, isKnownEventType)).toThrow(/stopped\.jsonl:11: no closing line after this one/);
  });

  it('a last line cut short (a write cut by a power cut) is left out of an incomplete history, and said so', () => {
    const w = World.create({ east: { mounts: { secret: 'kv-v2' } } }, { seed: 6 });
    writes(w, 0, 4);
    const text = toJsonl(w.log);
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, text);
    truncateSync(file, text.length - 20);
    for (const chainOnWorker of [false, true]) {
      const h = readHistory<SimEvent>(file, isKnownEventType, { incomplete: true, chainOnWorker });
      expect(h.incomplete).toEqual({ cutShort: true });
      expect(h.events.length).toBe(4);
    }
    expect(() => readHistory(file, isKnownEventType)).toThrow(/cut\.jsonl:5: the line is cut short/);
  });

  it('an incomplete history is still checked: an edited line, or a line after the closing line, is an error', () => {
    const w = World.create({ east: { mounts: { secret: 'kv-v2' } } }, { seed: 7 });
    writes(w, 0, 3);
    const lines = toJsonl(w.log).split('\n');
    lines[2] = lines[2].replace('"n":1', '"n":9');
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    expect(() => readHistory<SimEvent>(edited, isKnownEventType, { incomplete: true })).toThrow(HistoryFileError);
    expect(() => readHistory<SimEvent>(edited, isKnownEventType, { incomplete: true })).toThrow(/edited\.jsonl:3: the line does not match its hash-chain link/);
    const closed = join(dir, 'closed-then-more.jsonl');
    const h = w.history();
    writeFileSync(closed, toJsonl(h.events, h.end!));
    appendFileSync(closed, toJsonl(h.events).split('\n')[0] + '\n');
    expect(() => readHistory<SimEvent>(closed, isKnownEventType, { incomplete: true })).toThrow(/a line after the closing line/);
  });
});
