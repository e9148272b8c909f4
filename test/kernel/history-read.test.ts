// readHistory reads a file piece by piece (src/kernel/persist.ts): whatever the size of the pieces,
// it gives what parseHistory gives on the whole text — the same events and closing record, or the
// same `file:line: what` for the first bad line — including a line longer than a piece, characters
// of several bytes across a piece's edge, and a cut-short end reported before an earlier flaw. With
// the hash chain checked on a second thread (ChainCheck, the default for large files) it gives the
// same again: the first bad line, whichever thread finds it, with the same words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isKnownEventType, World } from '../../src/world.js';
import { HistoryFileError, parseHistory, readHistory, toJsonl } from '../../src/kernel/persist.js';

function run(): World {
  const w = World.create({ east: { mounts: { secret: 'kv-v2' } }, west: {} }, { seed: 3 });
  const token = w.tokenNamed('east', 'root');
  // Characters of two, three and four bytes in UTF-8, so that pieces of a few bytes cut through them.
  for (let i = 0; i < 6; i++) w.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { n: i, text: 'é€😀'.repeat(i * 40) } }, token });
  w.advance(100);
  return w;
}

const w = run();
const text = toJsonl(w.history().events, w.history().end!);
const lines = text.split('\n').slice(0, -1);
const join_ = (ls: string[]) => ls.join('\n') + '\n';
const dir = mkdtempSync(join(tmpdir(), 'replsim-read-'));

function outcome(f: () => unknown): unknown {
  try {
    return { ok: JSON.stringify(f()) };
  } catch (e) {
    if (e instanceof HistoryFileError) return { file: e.file, line: e.line, message: e.message };
    throw e;
  }
}

const variants: Record<string, string> = {
  untouched: text,
  'a deleted line': join_(lines.filter((_, i) => i !== 3)),
  'an edited line': join_(lines.map((l, i) => (i === 4 ? l.replace('"n":', '"n":1') : l))),
  'truncated at a line boundary': join_(lines.slice(0, 5)),
  'truncated inside a line': text.slice(0, text.length - 40),
  'cut short after an earlier flaw': join_(lines.filter((_, i) => i !== 2)).slice(0, -30),
  'a line after the closing line': join_([...lines, lines[1]]),
  'an edited line, then a line that is not JSON': join_(lines.map((l, i) => (i === 2 ? l.replace('"n":', '"n":1') : i === 5 ? '{oops' : l))),
  'a line that is not JSON, then an edited line': join_(lines.map((l, i) => (i === 2 ? '{oops' : i === 5 ? l.replace('"n":', '"n":1') : l))),
  'an edited closing line': join_(lines.map((l, i) => (i === lines.length - 1 ? l.replace('"events":', '"events": ') : l))),
  'an edited first line': join_(lines.map((l, i) => (i === 0 ? l.replace('"seed":3', '"seed":4') : l))),
  'a link of other characters': join_(lines.map((l, i) => (i === 3 ? l.slice(0, 6) + 'é'.repeat(64) + l.slice(70) : l))),
  'an empty line': join_([lines[0], '', ...lines.slice(1)]),
  'not JSON': join_([lines[0], '{oops', ...lines.slice(1)]),
  'no link': join_([lines[0], '{"at":0,"seq":2,"type":"time-advanced"}', ...lines.slice(1)]),
  empty: '',
  'no newline at all': 'x',
};

describe('readHistory, piece by piece', () => {
  it('has long lines and characters of several bytes to cut through', () => {
    expect(Math.max(...lines.map((l) => Buffer.byteLength(l)))).toBeGreaterThan(1000);
    expect(text).toContain('😀');
  });

  for (const [name, t] of Object.entries(variants))
    it(`gives what parseHistory gives: ${name}`, () => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.jsonl`);
      writeFileSync(file, t);
      const expected = outcome(() => parseHistory(t, file, isKnownEventType));
      for (const chunkBytes of [1, 7, 64, 1000, undefined]) expect(outcome(() => readHistory(file, isKnownEventType, { chunkBytes, chainOnWorker: false }))).toEqual(expected);
      for (const chunkBytes of [7, undefined]) expect(outcome(() => readHistory(file, isKnownEventType, { chunkBytes, chainOnWorker: true }))).toEqual(expected);
    });

  // Bytes that are not UTF-8 decode to U+FFFD, and the chain is over the decoded text: a history whose
  // U+FFFD was written as one invalid byte reads as the one that holds U+FFFD; an invalid byte put in
  // a history's line breaks its link.
  it('bytes that are not UTF-8: read as their decoded text, on either thread', () => {
    const v = World.create({ east: { mounts: { secret: 'kv-v2' } } }, { seed: 4 });
    v.request('east', { method: 'POST', path: 'secret/data/odd', body: { data: { text: 'a\uFFFDb' } }, token: v.tokenNamed('east', 'root') });
    const good = Buffer.from(toJsonl(v.history().events, v.history().end!));
    const at = good.indexOf(Buffer.from('a\uFFFDb'));
    expect(at).toBeGreaterThan(0);
    const invalid = Buffer.concat([good.subarray(0, at + 1), Buffer.from([0xff]), good.subarray(at + 4)]);
    const broken = Buffer.from(good);
    broken[at] = 0xfe;
    for (const [name, bytes, ok] of [['invalid', invalid, true], ['broken', broken, false]] as const) {
      const file = join(dir, `utf8-${name}.jsonl`);
      writeFileSync(file, bytes);
      const expected = outcome(() => parseHistory(bytes.toString('utf8'), file, isKnownEventType));
      expect(typeof expected === 'object' && expected !== null && 'ok' in expected).toBe(ok);
      for (const chainOnWorker of [false, true]) for (const chunkBytes of [3, undefined]) expect(outcome(() => readHistory(file, isKnownEventType, { chunkBytes, chainOnWorker }))).toEqual(expected);
    }
  });

  it('reads the untouched history to the world it was written from', () => {
    const file = join(dir, 'good.jsonl');
    writeFileSync(file, text);
    expect(World.replay(readHistory(file, isKnownEventType, { chunkBytes: 5 })).stateHash()).toBe(w.stateHash());
    expect(World.replay(readHistory(file, isKnownEventType, { chainOnWorker: true })).stateHash()).toBe(w.stateHash());
  });

  it('a file that cannot be read: file: cannot read', () => {
    expect(outcome(() => readHistory(join(dir, 'absent.jsonl')))).toMatchObject({ line: null, message: expect.stringMatching(/absent\.jsonl: cannot read: ENOENT/) });
    expect(outcome(() => readHistory(dir))).toMatchObject({ line: null, message: expect.stringMatching(/cannot read: EISDIR/) });
  });
});
