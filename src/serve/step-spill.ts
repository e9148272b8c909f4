// The step records of a serving session, kept compact while it serves. A record (request, response,
// findings) weighs 1.5 KB on the heap; a session keeps thousands, and reads them only to write
// results.json and the report or to draw the live view. So each record is kept as a line of JSON
// with the two event counts its states and events are read from (timeline.ts), and every
// SPILL_CHUNK lines are deflated together: some tens of bytes a step. `all()` inflates them into
// records again, their findings the very objects the session holds (a finding's step is found by
// identity), their states and events read from the session's timeline.
import { deflateSync, inflateSync } from 'node:zlib';
import type { StepRecord } from '../scenario/runner.js';
import type { Timeline } from '../scenario/timeline.js';
import type { Finding } from '../areas/monitoring/types.js';

/** Lines deflated together: enough for the repetition between records to compress well. */
export const SPILL_CHUNK = 256;

/** A kept line: [events before, events after, first finding, findings, the record's own fields]. */
type Line = [number, number, number, number, Record<string, unknown>];

export class StepSpill {
  private readonly chunks: Buffer[] = [];
  private pending: string[] = [];
  private count = 0;

  /**
   * @param timeline the session's: every record kept is one of its `attach`
   * @param findings every finding of the session, in order (a record's findings are a run of them)
   * @param head records kept as they are (a served scenario's steps, read from a timeline of their own)
   */
  constructor(
    private readonly timeline: Timeline,
    private readonly findings: readonly Finding[],
    private readonly head: readonly StepRecord[] = [],
  ) {}

  get length(): number {
    return this.head.length + this.count;
  }

  /** Keeps a record of the timeline whose findings are `findings[firstFinding ..]`. */
  push(record: StepRecord, firstFinding: number): void {
    const counts = this.timeline.countsOf(record);
    if (!counts) throw new RangeError('a step record kept compact must be read from the session timeline');
    const own: Record<string, unknown> = {};
    for (const key of Object.keys(record)) if (key !== 'findings') own[key] = (record as unknown as Record<string, unknown>)[key];
    const line: Line = [counts[0], counts[1], firstFinding, record.findings.length, own];
    this.pending.push(JSON.stringify(line));
    this.count++;
    if (this.pending.length >= SPILL_CHUNK) {
      this.chunks.push(deflateSync(this.pending.join('\n')));
      this.pending = [];
    }
  }

  /** Every record, in step order. */
  all(): StepRecord[] {
    const out = [...this.head];
    const read = (text: string) => {
      const [from, to, first, n, own] = JSON.parse(text) as Line;
      const record = { ...own, findings: this.findings.slice(first, first + n), before: undefined, after: undefined, events: [] } as unknown as StepRecord;
      out.push(this.timeline.attach(record, from, to));
    };
    for (const chunk of this.chunks) for (const text of inflateSync(chunk).toString('utf8').split('\n')) read(text);
    for (const text of this.pending) read(text);
    return out;
  }
}
