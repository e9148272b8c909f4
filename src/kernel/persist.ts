// JSONL persistence of the event log (history.jsonl): one event a line, in log order, canonical so
// that the same run writes the same bytes, and tamper-evident (issue 14: a deleted, duplicated or
// edited line, a changed seed or a truncated file used to replay silently to another state).
//
// The format ("replsim-history/1"):
//   - line k is the canonical JSON of event k with one more key, "#", first (it sorts before every
//     event key): the link of a hash chain, h_k = sha256(h_{k-1} + the event's canonical JSON),
//     with h_0 = sha256("replsim-history/1"). The event itself is byte for byte what it was.
//   - the last line closes the chain: {"#": h_{n+1}, "end": {"events": n, "format", "rng", "stateHash"}}
//     — how many events there are, the generator's position after the run (so a replayed world
//     draws the same values next as the original would: World.replay) and the state hash the
//     events must fold to.
// Reading checks, line by line: JSON, an event object with a string type, `seq` equal to the line
// number (a gap is a deleted line, a repeat a duplicated one), the chain link (an edited line), then
// the closing line (a truncated file has none). The first bad line is reported as `file:line: what`.
// Each line is hashed once, as text: the chain costs one sha256 of the line per event.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { canonicalJson } from './canonical.js';

export const HISTORY_FORMAT = 'replsim-history/1';

/** What the closing line records. */
export interface HistoryEnd {
  /** How many event lines precede it. */
  events: number;
  /** The generator's state after the run (`Rng.save()`). */
  rng: readonly number[];
  /** The state hash the events fold to. */
  stateHash: string;
}

/** A log with its closing record: what `run --out` writes and `replsim replay` reads. */
export interface History<E> {
  events: readonly E[];
  end: HistoryEnd | null;
  /** The file it was read from, for `file:line:` in errors found later (replay). */
  file?: string;
}

/** A history that cannot be trusted or used: `file:line: what`. */
export class HistoryFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly what: string,
  ) {
    super(line === null ? `${file}: ${what}` : `${file}:${line}: ${what}`);
  }
}

const GENESIS = createHash('sha256').update(HISTORY_FORMAT).digest('hex');
/** `{"#":"` + 64 hex digits + `",`: every line starts so; the event's own JSON follows after its `{`. */
const HEAD = '{"#":"';
const LINK_END = HEAD.length + 64;

/** sha256 hex of a text: the one-shot `crypto.hash` where the runtime has it (node >= 20.12), else a Hash object. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

function link(prev: string, body: string): string {
  // One-shot `crypto.hash` (node >= 20.12): the same digest as createHash().update(prev).update(body),
  // without a Hash object per line (issue #15: 3.9 → 1.0 µs a line; the chain was most of reading).
  return sha256Hex(prev + body);
}

/** The line of a canonical JSON object with its chain link put first. */
function chained(prev: string, body: string): { line: string; hash: string } {
  const hash = link(prev, body);
  return { line: HEAD + hash + '",' + body.slice(1), hash };
}

/** Writes history text line by line (for logs too long to hold as one string: the replay benchmark). */
export class HistoryChain {
  private prev = GENESIS;

  /** The chained line of one event, newline included. */
  line(event: unknown): string {
    const { line, hash } = chained(this.prev, canonicalJson(event));
    this.prev = hash;
    return line + '\n';
  }

  /** The closing line. */
  close(end: HistoryEnd): string {
    return this.line({ end: { events: end.events, format: HISTORY_FORMAT, rng: end.rng, stateHash: end.stateHash } });
  }
}

/** The log as history text: one chained line per event, then the closing line when `end` is given. */
export function toJsonl(events: readonly unknown[], end?: HistoryEnd): string {
  const chain = new HistoryChain();
  let out = '';
  for (const e of events) out += chain.line(e);
  if (end) out += chain.close(end);
  return out;
}

export function writeHistory(file: string, history: History<unknown>): void {
  writeFileSync(file, toJsonl(history.events, history.end ?? undefined));
}

/** Reads a history file; any flaw is a HistoryFileError naming the file and the first bad line. */
export function readHistory<E>(file: string, isKnownType?: (type: string) => boolean): History<E> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new HistoryFileError(file, null, `cannot read: ${(err as Error).message}`);
  }
  return parseHistory<E>(text, file, isKnownType);
}

const isHex64 = (s: string) => /^[0-9a-f]{64}$/.test(s);

/**
 * Parses and checks history text. `isKnownType` says which event types exist (the world's reducer
 * table, own keys only): a type named after an Object.prototype member is as unknown as any other.
 */
export function parseHistory<E>(text: string, file = '<history>', isKnownType?: (type: string) => boolean): History<E> {
  const events: E[] = [];
  let end: HistoryEnd | null = null;
  let prev = GENESIS;
  const lines = text.split('\n');
  // A file ends with a newline: the text after the last one is empty.
  const last = lines.length - 1;
  if (lines[last] !== '') throw new HistoryFileError(file, lines.length, 'the line is cut short (no newline at its end): the file was truncated or appended to');
  // Speed (the replay benchmark reads a million lines): the common path is a prefix check, one
  // JSON.parse, one sha256 and a comparison in place; the diagnoses run only on a bad line.
  for (let i = 0; i < last; i++) {
    const n = i + 1;
    const line = lines[i];
    if (end) throw new HistoryFileError(file, n, 'a line after the closing line: the history continues past its end');
    const linked = line.startsWith(HEAD) && line.charCodeAt(LINK_END) === 34 && line.charCodeAt(LINK_END + 1) === 44;
    // The event is the line without its link: parsed from that text, so no "#" key to remove.
    const body = linked ? '{' + line.slice(LINK_END + 2) : line;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (err) {
      throw new HistoryFileError(file, n, line.trim() === '' ? 'an empty line: a history has none' : `not valid JSON: ${(err as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HistoryFileError(file, n, 'not a JSON object');
    if (!linked) throw new HistoryFileError(file, n, `no hash-chain link first on the line (a "${HISTORY_FORMAT}" line starts {"#":"<sha256>",...): not a replsim history, or one written before histories were chained`);
    const hash = link(prev, body);
    const matches = line.startsWith(hash, HEAD.length);
    const record = value as Record<string, unknown>;
    const type = record.type;
    if (type === undefined && Object.hasOwn(record, 'end')) {
      end = closing(record.end, events.length, (what) => new HistoryFileError(file, n, what));
      if (!matches) throw new HistoryFileError(file, n, 'the closing line does not match its hash-chain link: it was edited');
      prev = hash;
      continue;
    }
    const seq = record.seq;
    if (typeof type !== 'string' || (isKnownType && !isKnownType(type)) || seq !== events.length + 1 || !matches) throw new HistoryFileError(file, n, eventProblem(record, events.length + 1, matches));
    prev = hash;
    events.push(record as E);
  }
  if (events.length === 0 && end === null) throw new HistoryFileError(file, null, 'empty: no events');
  if (end === null) throw new HistoryFileError(file, last, 'no closing line after this one: the history was truncated (or not written by `replsim run --out`)');
  return { events, end, file };

  function eventProblem(record: Record<string, unknown>, expected: number, matches: boolean): string {
    const { type, seq } = record;
    if (typeof type !== 'string') return 'not an event: no string "type"';
    if (isKnownType && !isKnownType(type)) return `unknown event type ${JSON.stringify(type)}`;
    if (seq !== expected) {
      if (typeof seq !== 'number' || !Number.isInteger(seq)) return `"seq" is ${JSON.stringify(seq)}, not the event's position ${expected}`;
      if (seq < expected) return `seq ${seq} again, where ${expected} was expected: a line repeated or moved`;
      return `seq ${seq} where ${expected} was expected: ${seq - expected === 1 ? 'a line is' : `${seq - expected} lines are`} missing before this one`;
    }
    if (!matches) return `the line does not match its hash-chain link: the event was edited (type ${JSON.stringify(type)}, seq ${seq})`;
    return 'a flaw replsim cannot name';
  }
}

function closing(raw: unknown, events: number, fail: (what: string) => HistoryFileError): HistoryEnd {
  const e = raw as Partial<HistoryEnd> & { format?: unknown };
  if (raw === null || typeof raw !== 'object') throw fail('the closing line has no "end" record');
  if (e.format !== HISTORY_FORMAT) throw fail(`the closing line's format is ${JSON.stringify(e.format)}, not "${HISTORY_FORMAT}"`);
  if (e.events !== events) throw fail(`the closing line counts ${JSON.stringify(e.events)} events, the file has ${events}: lines were removed or added`);
  if (!Array.isArray(e.rng) || e.rng.length === 0 || !e.rng.every((x) => Number.isInteger(x))) throw fail('the closing line has no generator state ("rng": whole numbers)');
  if (typeof e.stateHash !== 'string' || !isHex64(e.stateHash)) throw fail('the closing line has no "stateHash" (64 hex digits)');
  return { events, rng: e.rng, stateHash: e.stateHash };
}
