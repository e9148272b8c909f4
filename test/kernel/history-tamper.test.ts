// The log-tamper suite (issue 14, finding 4): a history.jsonl with a deleted line, a duplicated line,
// an edited value, a changed seed, a truncation at a line boundary, lines swapped, a prototype-named
// or unknown event type, or an edited closing line is refused with `file:line: what` naming the
// first bad line — through the library and through `replsim replay` (exit 2). Before, 27 of 117
// such tamperings replayed silently (exit 0, another hash) and 22 gave a JavaScript message.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { SimEvent } from '../../src/areas/core/events.js';
import { isKnownEventType, World } from '../../src/world.js';
import { HistoryFileError, parseHistory, readHistory, toJsonl } from '../../src/kernel/persist.js';

function run(): World {
  const w = World.create({ east: { mounts: { secret: 'kv-v2' } }, west: {} }, { seed: 7 });
  const token = w.tokenNamed('east', 'root');
  for (let i = 0; i < 4; i++) w.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { n: i } }, token });
  w.partition(['east', 'west']);
  w.advance(100);
  w.heal('all');
  w.request('east', { method: 'GET', path: 'secret/data/k1', token });
  return w;
}

const original = run();
const text = toJsonl(original.history().events, original.history().end!);
const lines = text.split('\n').slice(0, -1);

/** Replays tampered text as `replsim replay` does: parse, check, fold, compare the closing hash. */
function replayText(t: string): World {
  return World.replay(parseHistory<SimEvent>(t, 'h.jsonl', isKnownEventType));
}

function refusal(t: string): HistoryFileError {
  try {
    replayText(t);
  } catch (e) {
    if (e instanceof HistoryFileError) return e;
    throw new Error(`not a HistoryFileError: ${(e as Error).stack}`);
  }
  throw new Error('the tampered history was accepted');
}

const join_ = (ls: string[]) => ls.join('\n') + '\n';

/** The line with its event edited in place (its chain link kept, as a hand edit would). */
function edit(line: string, change: (e: Record<string, unknown>) => void): string {
  const link = line.slice(0, 72);
  const event = JSON.parse('{' + line.slice(72));
  change(event);
  return link + JSON.stringify(event).slice(1);
}

describe('a history is tamper-evident', () => {
  it('the untouched history replays to its hash', () => {
    expect(replayText(text).stateHash()).toBe(original.stateHash());
    expect(lines.length).toBe(original.log.length + 1);
  });

  it('a deleted line: the line after it, by its seq', () => {
    for (const k of [1, 3, lines.length - 3]) {
      const e = refusal(join_(lines.filter((_, i) => i !== k)));
      expect(e.message).toMatch(new RegExp(`^h\\.jsonl:${k + 1}: seq ${k + 2} where ${k + 1} was expected: a line is missing`));
    }
    // The last event deleted: the closing line, which counts one more.
    const last = lines.length - 2;
    expect(refusal(join_(lines.filter((_, i) => i !== last))).message).toBe(`h.jsonl:${last + 1}: the closing line counts ${last + 1} events, the file has ${last}: lines were removed or added`);
  });

  it('the first line deleted: line 1 is no world-created event', () => {
    expect(refusal(join_(lines.slice(1))).message).toMatch(/^h\.jsonl:1: /);
  });

  it('a duplicated line: the copy', () => {
    for (const k of [0, 2, lines.length - 2]) {
      const ls = [...lines.slice(0, k + 1), lines[k], ...lines.slice(k + 1)];
      expect(refusal(join_(ls)).message).toMatch(new RegExp(`^h\\.jsonl:${k + 2}: seq ${k + 1} again, where ${k + 2} was expected`));
    }
  });

  it('two lines swapped: the first of them', () => {
    const ls = [...lines];
    [ls[2], ls[3]] = [ls[3], ls[2]];
    expect(refusal(join_(ls)).message).toMatch(/^h\.jsonl:3: seq 4 where 3 was expected/);
  });

  it('an edited value: that line', () => {
    const k = lines.findIndex((l) => l.includes('"kv-written"'));
    const ls = [...lines];
    ls[k] = edit(ls[k], (e) => ((e.data as Record<string, unknown>).n = 99));
    expect(refusal(join_(ls)).message).toMatch(new RegExp(`^h\\.jsonl:${k + 1}: the line does not match its hash-chain link: the event was edited \\(type "kv-written"`));
  });

  it('a changed seed: line 1', () => {
    const ls = [...lines];
    ls[0] = edit(ls[0], (e) => (e.seed = 8));
    expect(refusal(join_(ls)).message).toMatch(/^h\.jsonl:1: the line does not match its hash-chain link/);
  });

  it('an edited time or seq renumbered consistently after a deletion is still caught by the chain', () => {
    const ls = lines.filter((_, i) => i !== 2).map((l, i) => (i >= 2 && i < lines.length - 2 ? edit(l, (e) => (e.seq = i + 1)) : l));
    expect(refusal(join_(ls)).message).toMatch(/^h\.jsonl:3: the line does not match its hash-chain link/);
  });

  it('a truncation at a line boundary: the last line left, which has no closing line after it', () => {
    for (const keep of [lines.length - 1, 5, 1]) {
      const e = refusal(join_(lines.slice(0, keep)));
      expect(e.message).toBe(`h.jsonl:${keep}: no closing line after this one: the history was truncated (or not written by \`replsim run --out\`)`);
    }
  });

  it('a truncation inside a line: that line', () => {
    const cut = text.slice(0, text.length - 40);
    expect(refusal(cut).message).toMatch(new RegExp(`^h\\.jsonl:${lines.length}: the line is cut short`));
  });

  it('an event type named after an Object.prototype member, or unknown: that line', () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'no-such-event']) {
      const ls = [...lines];
      ls[2] = edit(ls[2], (e) => (e.type = type));
      expect(refusal(join_(ls)).message).toBe(`h.jsonl:3: unknown event type ${JSON.stringify(type)}`);
    }
  });

  it('an edited closing line (state hash, count, generator): the closing line', () => {
    const last = lines.length;
    for (const change of [(e: any) => (e.end.stateHash = '0'.repeat(64)), (e: any) => (e.end.rng = [1, 2, 3, 4]), (e: any) => (e.end.events -= 1)]) {
      const ls = [...lines];
      ls[last - 1] = edit(ls[last - 1], change);
      expect(refusal(join_(ls)).message).toMatch(new RegExp(`^h\\.jsonl:${last}: `));
    }
  });

  it('a line after the closing line, an empty line, a line that is not JSON or has no link: that line', () => {
    expect(refusal(join_([...lines, lines[1]])).message).toMatch(new RegExp(`^h\\.jsonl:${lines.length + 1}: a line after the closing line`));
    expect(refusal(join_([lines[0], '', ...lines.slice(1)])).message).toBe('h.jsonl:2: an empty line: a history has none');
    expect(refusal(join_([lines[0], '{oops', ...lines.slice(1)])).message).toMatch(/^h\.jsonl:2: not valid JSON/);
    expect(refusal(join_([lines[0], '{"at":0,"seq":2,"type":"time-advanced"}', ...lines.slice(1)])).message).toMatch(/^h\.jsonl:2: no hash-chain link/);
  });

  it('an event a reducer cannot apply, behind a recomputed chain: its line, in replsim words', () => {
    // A deliberate forger can recompute the chain; the replay still names the line.
    const events = JSON.parse(JSON.stringify(original.log)) as SimEvent[];
    const k = events.findIndex((e) => e.type === 'kv-written');
    (events[k] as { cluster: string }).cluster = 'nowhere';
    const e = refusal(toJsonl(events, original.history().end!));
    expect(e.message).toMatch(new RegExp(`^h\\.jsonl:${k + 1}: the "kv-written" event cannot be applied: `));
  });

  it('replsim replay prints file:line: what and exits 2; an untouched file prints the hash and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-tamper-'));
    const good = join(dir, 'good.jsonl');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(good, text);
    writeFileSync(bad, join_(lines.filter((_, i) => i !== 3)));
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stdout: {}, env: {} } };
    };
    const a = io();
    expect(await main(['replay', good], a.io)).toBe(0);
    expect(a.out).toEqual([original.stateHash()]);
    const b = io();
    expect(await main(['replay', bad], b.io)).toBe(2);
    expect(b.err).toEqual([`${bad}:4: seq 5 where 4 was expected: a line is missing before this one`]);
  });
});

describe('a history whose role events do not fit the role table', () => {
  it('is refused at the line of the event, which the role machine has no transition for', () => {
    // east never enabled DR replication: a demotion of it cannot be applied.
    const demoted = JSON.stringify({ type: 'replication-primary-demoted', at: 0, kind: 'dr', cluster: 'east', seq: 2 });
    const first = lines[0];
    expect(() => World.replay([JSON.parse(first), JSON.parse(demoted)] as SimEvent[])).toThrow(/^<history>:2: .*no primary\.demote from disabled/);
  });
});

describe('a history of an older format', () => {
  /** The same events chained from another format's genesis, as that format's writer made them. */
  function chainedAs(format: string): string {
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    let prev = sha(format);
    return (
      lines
        .map((l) => {
          const body = '{' + l.slice('{"#":"'.length + 64 + 2);
          const withFormat = body.startsWith('{"end":') ? body.replace(/"format":"[^"]*"/, `"format":"${format}"`) : body;
          prev = sha(prev + withFormat);
          return `{"#":"${prev}",${withFormat.slice(1)}`;
        })
        .join('\n') + '\n'
    );
  }

  it('is refused at line 1 by the name of its format, not as an edited line, through the worker thread too', () => {
    const older = chainedAs('replsim-history/1');
    const message = /^h\.jsonl:1: a history of the older format "replsim-history\/1", which this replsim does not replay .*run the scenario again to write a "replsim-history\/2" history$/;
    expect(refusal(older).message).toMatch(message);
    const file = join(mkdtempSync(join(tmpdir(), 'replsim-older-')), 'h.jsonl');
    writeFileSync(file, older);
    expect(() => readHistory<SimEvent>(file, isKnownEventType, { chainOnWorker: true })).toThrow(/:1: a history of the older format "replsim-history\/1"/);
    // The same text chained from a format replsim never wrote is an edited line.
    expect(refusal(chainedAs('something-else/1')).message).toMatch(/^h\.jsonl:1: the line does not match its hash-chain link: the event was edited/);
    // And re-chained as the current format, it replays.
    expect(replayText(chainedAs('replsim-history/2')).stateHash()).toBe(original.stateHash());
  });
});
