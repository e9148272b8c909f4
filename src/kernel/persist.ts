// JSONL persistence of the event log (history.jsonl): one event a line, in log order, canonical so
// that the same run writes the same bytes, and tamper-evident (a deleted, duplicated or
// edited line, a changed seed or a truncated file would otherwise replay silently to another state).
//
// The format ("replsim-history/2"):
//   - line k is the canonical JSON of event k with one more key, "#", first (it sorts before every
//     event key): the link of a hash chain, h_k = sha256(h_{k-1} + the event's canonical JSON),
//     with h_0 = sha256("replsim-history/2"). The event itself is byte for byte what it was.
//   - "replsim-history/1" had the same lines, with events that left the reducers to ask the
//     connection and sync association machines again; this replsim refuses it by name (its first
//     line's link is the old format's), rather than as an edited line.
//   - the last line closes the chain: {"#": h_{n+1}, "end": {"events": n, "format", "rng", "stateHash"}}
//     — how many events there are, the generator's position after the run (so a replayed world
//     draws the same values next as the original would: World.replay) and the state hash the
//     events must fold to.
// Reading checks, line by line: JSON, an event object with a string type, `seq` equal to the line
// number (a gap is a deleted line, a repeat a duplicated one), the chain link (an edited line), then
// the closing line (a truncated file has none). The first bad line is reported as `file:line: what`.
// Each line is hashed once, as written (the text after its link, which replsim wrote as canonical
// JSON): no event is serialised again, and the chain costs one sha256 per line. A file is read in
// pieces (readHistory), a piece checked line by line straight from its text.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { canonicalJson } from './canonical.js';
import { ChainCheck } from './chain-check.js';

export const HISTORY_FORMAT = 'replsim-history/2';
/** The formats replsim wrote before, which it names when it meets them instead of reading them. */
const OLDER_FORMATS = ['replsim-history/1'];

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
  /** The chain links of the first and the last event line, as read (they name the run: `RunId`). */
  links?: { first: string; last: string };
  /** Read with `incomplete: true` from a file without its closing line: whether its last line was cut short (and left out). */
  incomplete?: { cutShort: boolean };
}

/**
 * What names a run, carried by every file it writes: its seed, its event count and the chain links
 * of its first and last event lines (the last link covers every event before it), and the state
 * hash it ended with (null while it runs, or for a history that was never closed). Two files of the
 * same run carry the same id.
 */
export interface RunId {
  seed: number | null;
  events: number;
  start: string;
  last: string;
  stateHash: string | null;
}

/** A history's run id (read by `readHistory`, which records its links). */
export function runIdOf(history: History<unknown>): RunId {
  const first = history.events[0] as { seed?: unknown } | undefined;
  return {
    seed: typeof first?.seed === 'number' ? first.seed : null,
    events: history.events.length,
    start: history.links?.first ?? '',
    last: history.links?.last ?? '',
    stateHash: history.end?.stateHash ?? null,
  };
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
const OLDER_GENESES = OLDER_FORMATS.map((format) => ({ format, genesis: createHash('sha256').update(format).digest('hex') }));
/** `{"#":"` + 64 hex digits + `",`: every line starts so; the event's own JSON follows after its `{`. */
const HEAD = '{"#":"';
const LINK_END = HEAD.length + 64;

/** sha256 hex of a text: the one-shot `crypto.hash` where the runtime has it (node >= 20.12), else a Hash object. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

function link(prev: string, body: string): string {
  // One-shot `crypto.hash` (node >= 20.12): the same digest as createHash().update(prev).update(body),
  // without a Hash object per line, which would be most of reading a history.
  return sha256Hex(prev + body);
}

/** The flaw of a closing line whose link does not match, found on this thread or on the chain's (one text for both). */
const CLOSING_EDITED = 'the closing line does not match its hash-chain link: it was edited';

/** The line of a canonical JSON object with its chain link put first. */
function chained(prev: string, body: string): { line: string; hash: string } {
  const hash = link(prev, body);
  return { line: HEAD + hash + '",' + body.slice(1), hash };
}

/** Writes history text line by line (for logs too long to hold as one string: the replay benchmark). */
export class HistoryChain {
  private prev = GENESIS;

  /** The link of the last line made (the format's genesis before the first). */
  get link(): string {
    return this.prev;
  }

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

/**
 * history.jsonl written as the run goes: each step's events are appended as soon as they are
 * committed, in one write of whole lines, so a process killed at any moment leaves every committed
 * event on disk (the operating system holds what was written); `close` adds the closing line.
 * Durability against a power cut is the disk's: the file is synced to the disk at `close`, and,
 * given a clock, after a write when `syncEveryMs` passed since the last sync; a power cut loses at
 * most the events of that interval (and may cut the last line, which `replay` leaves out).
 */
export class HistoryAppender {
  private readonly chain = new HistoryChain();
  private fd: number | null;
  private count = 0;
  private start = '';
  private lastLink = '';
  private seed: number | null = null;
  private syncedAt: number;

  constructor(
    readonly file: string,
    private readonly sync: { now?: () => number; everyMs?: number } = {},
  ) {
    this.fd = openSync(file, 'w');
    this.syncedAt = sync.now?.() ?? 0;
  }

  /** Events written so far. */
  get events(): number {
    return this.count;
  }

  get open(): boolean {
    return this.fd !== null;
  }

  /** Appends the events of `log` not written yet (a log only grows). */
  follow(log: readonly unknown[]): void {
    if (this.fd === null || log.length <= this.count) return;
    let text = '';
    for (let i = this.count; i < log.length; i++) {
      if (i === 0) {
        const seed = (log[0] as { seed?: unknown }).seed;
        this.seed = typeof seed === 'number' ? seed : null;
      }
      text += this.chain.line(log[i]);
      if (i === 0) this.start = this.chain.link;
    }
    this.count = log.length;
    this.lastLink = this.chain.link;
    writeAll(this.fd, text);
    const { now, everyMs } = this.sync;
    if (now && everyMs !== undefined && now() - this.syncedAt >= everyMs) {
      fsyncSync(this.fd);
      this.syncedAt = now();
    }
  }

  /** The run's id so far, with the state hash it ended with once known. */
  id(stateHash: string | null = null): RunId {
    return { seed: this.seed, events: this.count, start: this.start, last: this.lastLink, stateHash };
  }

  /** Writes the closing line (after the events of `log` not written yet), syncs and closes the file. */
  close(log: readonly unknown[], end: HistoryEnd): RunId {
    this.follow(log);
    if (this.fd === null) throw new Error('the history is already closed');
    writeAll(this.fd, this.chain.close(end));
    this.release();
    return this.id(end.stateHash);
  }

  /** Syncs and closes the file as it is, without a closing line (the run did not end). */
  release(): void {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Bytes read from a history file at a time. The file is read and decoded piece by piece, each piece
 * checked while it is still in the processor's cache: reading a 50 MiB history whole, then checking
 * it, takes 1.3x the time (pieces of 64 KiB to 1 MiB are within 5% of each other: BENCHMARKS.md). It also lifts the limit of one string (V8's 512 MiB), which a whole-file read hit on a
 * history of some 3M events. A longer line grows the buffer.
 */
const READ_CHUNK = 1 << 16;

/** The longest line a history may hold: an event carries at most a 32 MiB request body, and escaping can double it. */
const MAX_LINE_BYTES = 64 << 20;

/**
 * Files from this size on have their hash chain checked on a second thread (src/kernel/chain-check.ts)
 * while this one parses: starting the thread costs some 20–30 ms, hashing 1 MiB of lines ~4 ms.
 */
const CHAIN_ON_WORKER_MIN = 8 << 20;

export interface ReadOptions {
  /** Bytes read at a time: for tests, which read with small pieces to cross their boundaries; the result does not depend on it. */
  chunkBytes?: number;
  /** Check the hash chain on a second thread (default: for regular files of 8 MiB and more); the result does not depend on it. */
  chainOnWorker?: boolean;
  /**
   * Accept a history without its closing line (a run or a session stopped before its end): its
   * events are returned with `end: null` and `incomplete` set; a last line cut short (a write
   * interrupted by a power cut) is left out. Any other flaw is still an error.
   */
  incomplete?: boolean;
}

/** Reads a history file; any flaw is a HistoryFileError naming the file and the first bad line. */
export function readHistory<E>(file: string, isKnownType?: (type: string) => boolean, options: ReadOptions = {}): History<E> {
  const cannot = (err: unknown) => new HistoryFileError(file, null, `cannot read: ${(err as Error).message}`);
  let fd: number;
  let size: number | null;
  try {
    fd = openSync(file, 'r');
    // A pipe or /dev/stdin has no size: it is read as it comes, on this thread only.
    const stat = fstatSync(fd);
    size = stat.isFile() ? stat.size : null;
  } catch (err) {
    throw cannot(err);
  }
  const chunkBytes = options.chunkBytes ?? READ_CHUNK;
  const chain = (options.chainOnWorker ?? (size !== null && size >= CHAIN_ON_WORKER_MIN)) ? ChainCheck.start(GENESIS) : null;
  const reader = new HistoryReader<E>(file, isKnownType, chain !== null);
  // A flaw found on the way is thrown only once the file's end is known: a line cut short at the end
  // is reported first, whatever precedes it, as when the whole text was checked before its lines.
  let flaw: HistoryFileError | undefined;
  let newlines = 0;
  let buf = Buffer.allocUnsafe(chunkBytes);
  // Bytes of a line not yet complete, at the start of `buf`.
  let carry = 0;
  try {
    for (;;) {
      if (carry === buf.length) {
        // A line this long is no event replsim writes (a request body is at most 32 MiB): refused
        // before the buffer grows without bound (a link to /dev/zero has no newline at all).
        if (buf.length >= MAX_LINE_BYTES) throw new HistoryFileError(file, reader.lineCount + 1, `a line longer than ${MAX_LINE_BYTES >> 20} MiB: not a replsim history`);
        // One line longer than the buffer (a world of many clusters is created on one line).
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let read: number;
      try {
        // Read on from the current position (null), so that a pipe or /dev/stdin reads as a file does.
        read = readSync(fd, buf, carry, buf.length - carry, null);
      } catch (err) {
        throw cannot(err);
      }
      if (read === 0) break;
      const filled = carry + read;
      // A newline byte is never inside a multi-byte UTF-8 character: the text up to it decodes whole.
      const cut = buf.lastIndexOf(10, filled - 1) + 1;
      if (cut > 0) {
        if (flaw) newlines += countNewlines(buf, cut);
        else {
          chain?.push(buf.subarray(0, cut));
          const before = reader.lineCount;
          try {
            reader.lines(buf.toString('utf8', 0, cut));
          } catch (e) {
            if (!(e instanceof HistoryFileError)) throw e;
            flaw = e;
            // From here on only the lines are counted, for the line number of a cut-short end.
            newlines = before + countNewlines(buf, cut);
          }
        }
        buf.copy(buf, 0, cut, filled);
      }
      carry = filled - cut;
    }
  } catch (err) {
    chain?.abandon();
    throw err;
  } finally {
    closeSync(fd);
  }
  // A run stopped mid-write can leave its last line cut short: without its closing line, that line
  // is left out when an incomplete history is asked for.
  const tolerated = carry > 0 && options.incomplete === true && !flaw && !reader.closed;
  if (carry > 0 && !tolerated) {
    chain?.abandon();
    throw cutShort(file, (flaw ? newlines : reader.lineCount) + 1);
  }
  if (chain) {
    const answer = chain.finish();
    // The thread failed (it should not): the file is read again, checked on this thread alone.
    if (!answer.ok) return readHistory(file, isKnownType, { ...options, chainOnWorker: false });
    // The first line whose link does not match, when it comes before this thread's first flaw.
    if (answer.badLine !== null && (!flaw || flaw.line === null || answer.badLine < flaw.line)) throw reader.unlinked(answer.badLine);
  }
  if (flaw) throw flaw;
  return reader.finish(options.incomplete ? { cutShort: tolerated } : undefined);
}

function countNewlines(buf: Buffer, end: number): number {
  let n = 0;
  for (let at = buf.indexOf(10); at >= 0 && at < end; at = buf.indexOf(10, at + 1)) n++;
  return n;
}

function cutShort(file: string, line: number): HistoryFileError {
  return new HistoryFileError(file, line, 'the line is cut short (no newline at its end): the file was truncated or appended to');
}

const isHex64 = (s: string) => /^[0-9a-f]{64}$/.test(s);

/**
 * Parses and checks history text. `isKnownType` says which event types exist (the world's reducer
 * table, own keys only): a type named after an Object.prototype member is as unknown as any other.
 */
export function parseHistory<E>(text: string, file = '<history>', isKnownType?: (type: string) => boolean): History<E> {
  // A file ends with a newline: text after the last one is a line cut short, whatever precedes it.
  if (text !== '' && text.charCodeAt(text.length - 1) !== 10) {
    let newlines = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) newlines++;
    throw cutShort(file, newlines + 1);
  }
  const reader = new HistoryReader<E>(file, isKnownType);
  reader.lines(text);
  return reader.finish();
}

/**
 * Checks history lines as they are read, keeping the chain's last link between pieces of text.
 * Speed (the replay benchmark reads a million lines): the common path is a prefix check, one
 * JSON.parse, one sha256 and a comparison in place, read straight from the text with no string per
 * line (the event is parsed from the text after its link); the diagnoses run only on a bad line.
 */
class HistoryReader<E> {
  private readonly events: E[] = [];
  private end: HistoryEnd | null = null;
  private prev = GENESIS;
  /** Lines checked so far. */
  lineCount = 0;

  constructor(
    private readonly file: string,
    private readonly isKnownType?: (type: string) => boolean,
    /** The chain is checked by a ChainCheck (readHistory): lines are taken as matching their links here. */
    private readonly chainElsewhere = false,
  ) {}

  /** Checks whole lines: `text` is empty or ends with a newline. */
  lines(text: string): void {
    const { file, isKnownType, events } = this;
    let prev = this.prev;
    let pos = 0;
    let nl: number;
    // Where the last event line of this text starts: its stated link is read once, after the loop.
    let lastEventAt = -1;
    while ((nl = text.indexOf('\n', pos)) >= 0) {
      const lineAt = pos;
      const n = ++this.lineCount;
      if (this.end) throw new HistoryFileError(file, n, 'a line after the closing line: the history continues past its end');
      const linked = nl - pos > LINK_END + 1 && text.startsWith(HEAD, pos) && text.charCodeAt(pos + LINK_END) === 34 && text.charCodeAt(pos + LINK_END + 1) === 44;
      // The event is the line without its link: parsed from that text, so no "#" key to remove.
      const body = linked ? '{' + text.slice(pos + LINK_END + 2, nl) : text.slice(pos, nl);
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (err) {
        throw new HistoryFileError(file, n, body.trim() === '' ? 'an empty line: a history has none' : `not valid JSON: ${(err as Error).message}`);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HistoryFileError(file, n, 'not a JSON object');
      if (!linked) throw new HistoryFileError(file, n, `no hash-chain link first on the line (a "${HISTORY_FORMAT}" line starts {"#":"<sha256>",...): not a replsim history, or one written before histories were chained`);
      const hash = this.chainElsewhere ? prev : link(prev, body);
      const matches = this.chainElsewhere || text.startsWith(hash, pos + HEAD.length);
      if (n === 1) this.firstLine = { body, stated: text.slice(pos + HEAD.length, pos + LINK_END) };
      pos = nl + 1;
      const record = value as Record<string, unknown>;
      const type = record.type;
      if (type === undefined && Object.hasOwn(record, 'end')) {
        this.end = closing(record.end, events.length, (what) => new HistoryFileError(file, n, what));
        if (!matches) throw new HistoryFileError(file, n, CLOSING_EDITED);
        prev = hash;
        continue;
      }
      const seq = record.seq;
      if (typeof type !== 'string' || (isKnownType && !isKnownType(type)) || seq !== events.length + 1 || !matches) throw new HistoryFileError(file, n, this.eventProblem(record, events.length + 1, matches));
      prev = hash;
      lastEventAt = lineAt;
      if (events.length === 0) this.firstLink = text.slice(lineAt + HEAD.length, lineAt + LINK_END);
      events.push(record as E);
    }
    this.prev = prev;
    if (lastEventAt >= 0) this.lastLink = text.slice(lastEventAt + HEAD.length, lastEventAt + LINK_END);
  }

  private firstLink = '';
  /** Line 1's event text and stated link, to name an older format whose chain it starts. */
  private firstLine: { body: string; stated: string } | null = null;

  private olderFormat(): string | null {
    const first = this.firstLine;
    if (!first) return null;
    for (const { format, genesis } of OLDER_GENESES) if (link(genesis, first.body) === first.stated) return format;
    return null;
  }
  private lastLink = '';

  /** True once the closing line was read. */
  get closed(): boolean {
    return this.end !== null;
  }

  /**
   * The history, once every line was read: a closing line must have come, unless `incomplete` is
   * given (a run stopped before its end: its events are what it committed).
   */
  finish(incomplete?: { cutShort: boolean }): History<E> {
    const { events, end, file } = this;
    if (events.length === 0 && end === null) throw new HistoryFileError(file, null, 'empty: no events');
    const links = { first: this.firstLink, last: this.lastLink };
    if (end === null) {
      if (incomplete) return { events, end, file, links, incomplete };
      throw new HistoryFileError(file, this.lineCount, 'no closing line after this one: the history was truncated (or not written by `replsim run --out`)');
    }
    return { events, end, file, links };
  }

  /**
   * The flaw of line `n`, read without a flaw of its own, whose link does not match (the ChainCheck's
   * answer): what reading it on this thread would have said.
   */
  unlinked(n: number): HistoryFileError {
    const { file, events, end } = this;
    if (end !== null && n === events.length + 1) return new HistoryFileError(file, n, CLOSING_EDITED);
    return new HistoryFileError(file, n, this.eventProblem(events[n - 1] as Record<string, unknown>, n, false));
  }

  private eventProblem(record: Record<string, unknown>, expected: number, matches: boolean): string {
    const { type, seq } = record;
    const older = expected === 1 && !matches ? this.olderFormat() : null;
    if (older) return `a history of the older format "${older}", which this replsim does not replay (its events leave out answers the reducers now apply: a connection's sync, the connections a crash ended, a sync association's value); run the scenario again to write a "${HISTORY_FORMAT}" history`;
    if (typeof type !== 'string') return 'not an event: no string "type"';
    if (this.isKnownType && !this.isKnownType(type)) return `unknown event type ${JSON.stringify(type)}`;
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
