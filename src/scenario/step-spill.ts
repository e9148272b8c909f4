// The step records of a run or a serving session, kept compact as they come. A record (request,
// response, findings) weighs 1.5 KB on the heap; a run of 100,000 steps or a long session keeps that
// many, and reads them only to narrate, to write results.json and the report, or to draw the live
// view. So each record is kept as a line of JSON with the two event counts its states and events are
// read from (timeline.ts), and every SPILL_CHUNK lines are deflated together: some tens of bytes a
// step. Reading them back inflates one chunk at a time, in step order: the records come back one by
// one, their findings the very objects the run holds (a finding's step is found by identity), their
// states and events read from the timeline. Nothing holds every record at once unless its reader does.
import { inflateSync } from 'node:zlib';
import { deflateToKeep } from '../kernel/deflate.js';
import type { Timeline } from './timeline.js';
import type { Finding } from '../areas/monitoring/types.js';
import type { SimEvent } from '../areas/core/events.js';
import type { SimState } from '../areas/core/state.js';

/** What a kept record has: its findings, and the states and events a timeline reads for it (runner.ts's StepRecord). */
export interface SpillRecord {
  findings: Finding[];
  before: SimState;
  after: SimState;
  events: SimEvent[];
}

/** Lines deflated together: enough for the repetition between records to compress well. */
export const SPILL_CHUNK = 256;

/**
 * A run's step records in step order, read back one at a time: iterate it (each pass inflates the
 * records again), or ask for one by its position. The array-like methods read it through once.
 */
export interface StepLog<StepRecord extends SpillRecord = SpillRecord> extends Iterable<StepRecord> {
  readonly length: number;
  /** The record at `index` (from 0; negative counts from the end), or undefined. */
  at(index: number): StepRecord | undefined;
  map<T>(f: (record: StepRecord, index: number) => T): T[];
  flatMap<T>(f: (record: StepRecord, index: number) => T | readonly T[]): T[];
  filter(f: (record: StepRecord) => unknown): StepRecord[];
  find(f: (record: StepRecord) => unknown): StepRecord | undefined;
  findIndex(f: (record: StepRecord) => unknown): number;
  some(f: (record: StepRecord) => unknown): boolean;
  every(f: (record: StepRecord) => unknown): boolean;
  forEach(f: (record: StepRecord, index: number) => void): void;
}

/** The array-like methods of a StepLog, over its iterator. */
export abstract class StepLogBase<StepRecord extends SpillRecord> implements StepLog<StepRecord> {
  abstract readonly length: number;
  abstract [Symbol.iterator](): Iterator<StepRecord>;
  abstract at(index: number): StepRecord | undefined;

  map<T>(f: (record: StepRecord, index: number) => T): T[] {
    const out: T[] = [];
    let i = 0;
    for (const r of this) out.push(f(r, i++));
    return out;
  }

  flatMap<T>(f: (record: StepRecord, index: number) => T | readonly T[]): T[] {
    return this.map(f).flat() as T[];
  }

  filter(f: (record: StepRecord) => unknown): StepRecord[] {
    const out: StepRecord[] = [];
    for (const r of this) if (f(r)) out.push(r);
    return out;
  }

  find(f: (record: StepRecord) => unknown): StepRecord | undefined {
    for (const r of this) if (f(r)) return r;
    return undefined;
  }

  findIndex(f: (record: StepRecord) => unknown): number {
    let i = 0;
    for (const r of this) {
      if (f(r)) return i;
      i++;
    }
    return -1;
  }

  some(f: (record: StepRecord) => unknown): boolean {
    return this.find(f) !== undefined;
  }

  every(f: (record: StepRecord) => unknown): boolean {
    return !this.some((r) => !f(r));
  }

  forEach(f: (record: StepRecord, index: number) => void): void {
    let i = 0;
    for (const r of this) f(r, i++);
  }
}

/** A kept line: [events before, events after, first finding, findings, the record's own fields]. */
type Line = [number, number, number, number, Record<string, unknown>];

export class StepSpill<StepRecord extends SpillRecord> extends StepLogBase<StepRecord> {
  private readonly chunks: Buffer[] = [];
  /**
   * The lines not yet deflated, each encoded as it comes: joined as text, a chunk's lines would be
   * one string too large for the heap's young space, kept until a full collection.
   */
  private pending: Buffer[] = [];
  private count = 0;
  /** The chunk inflated last, for `at`: its number and its lines. */
  private lastChunk: [number, string[]] | undefined;

  /**
   * @param timeline the run's or the session's: every record kept is one of its `attach`
   * @param findings every finding of the run, in order (a record's findings are a run of them)
   * @param head records kept as they are (a served scenario's steps, read from a timeline of their own)
   */
  constructor(
    private readonly timeline: Timeline,
    private readonly findings: readonly Finding[],
    private readonly head: readonly StepRecord[] = [],
  ) {
    super();
  }

  get length(): number {
    return this.head.length + this.count;
  }

  /** Keeps a record of the timeline whose findings are `findings[firstFinding ..]`. */
  push(record: StepRecord, firstFinding: number): void {
    const counts = this.timeline.countsOf(record);
    if (!counts) throw new RangeError('a step record kept compact must be read from the timeline it was kept with');
    const own: Record<string, unknown> = {};
    for (const key of Object.keys(record)) if (key !== 'findings') own[key] = (record as unknown as Record<string, unknown>)[key];
    const line: Line = [counts[0], counts[1], firstFinding, record.findings.length, own];
    this.pending.push(Buffer.from(JSON.stringify(line) + '\n', 'utf8'));
    this.count++;
    if (this.pending.length >= SPILL_CHUNK) {
      this.chunks.push(deflateToKeep(Buffer.concat(this.pending)));
      this.pending = [];
    }
  }

  /** Every record, in step order, in one array (for a reader that needs them all at once: a short session's live view). */
  all(): StepRecord[] {
    return [...this];
  }

  *[Symbol.iterator](): Iterator<StepRecord> {
    yield* this.head;
    for (let c = 0; c < this.chunks.length; c++) for (const text of this.chunkLines(c)) yield this.read(text);
    // A copy: a record pushed while this pass goes on is read by the next pass.
    for (const line of [...this.pending]) yield this.read(line.toString('utf8'));
  }

  at(index: number): StepRecord | undefined {
    if (index < 0) index += this.length;
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    if (index < this.head.length) return this.head[index];
    const i = index - this.head.length;
    const c = Math.floor(i / SPILL_CHUNK);
    if (c >= this.chunks.length) return this.read(this.pending[i - c * SPILL_CHUNK].toString('utf8'));
    if (this.lastChunk?.[0] !== c) this.lastChunk = [c, this.chunkLines(c)];
    return this.read(this.lastChunk[1][i - c * SPILL_CHUNK]);
  }

  /** A chunk's lines, each decoded on its own (the chunk's text as one string would be a large object, as in push). */
  private chunkLines(c: number): string[] {
    const bytes = inflateSync(this.chunks[c]);
    const lines: string[] = [];
    for (let from = 0; from < bytes.length; ) {
      const end = bytes.indexOf(0x0a, from);
      lines.push(bytes.toString('utf8', from, end));
      from = end + 1;
    }
    return lines;
  }

  private read(text: string): StepRecord {
    const [from, to, first, n, own] = JSON.parse(text) as Line;
    // The parsed line's own object, not a spread copy of it: copies made so outlived the young
    // generation (some 2 KB a record kept until a full collection, 200 MB for a 100,000-step results.json).
    own.findings = this.findings.slice(first, first + n);
    return this.timeline.attach(own as unknown as StepRecord, from, to);
  }
}
