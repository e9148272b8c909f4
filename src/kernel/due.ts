// A due-time queue: timed work ordered by the virtual time it falls due, then by the order it was
// scheduled (a deterministic tie-break: the log's order, since everything scheduled is read from the
// log). The world's time advancement takes from it the earliest work due, instead of asking every
// cluster after every event what it has to do, so the cost grows with the work scheduled, not with
// clusters × events. The bus (bus.ts) keeps its in-flight messages here; any other timed work
// (a reindex finishing, a token expiring) can be scheduled the same way, as an entry with its due time.
//
// Timed work (a reindex finishing, a sync job falling due) can carry a rank: at the same due time,
// ranked entries come out before unranked ones (messages, checks), in rank order (compared element
// by element), so work scheduled on different events keeps one order that does not depend on when it
// was scheduled (as the timed processes had it: the earliest, ties by area and name).
//
// A binary heap; an entry is never removed from the middle: whoever scheduled it says, when it comes
// out, whether it still stands (`isLive`), so cancelling (a message delivered early by a merkle sync,
// dropped by a crash) costs nothing until then.

export interface DueEntry<T> {
  /** Virtual time (ms) it falls due. */
  due: number;
  /** Scheduling order: ties on `due` come out in this order. */
  tie: number;
  /** Timed work's order at equal due times (before unranked entries); none for messages and checks. */
  rank?: readonly string[];
  value: T;
}

/** Element-wise order of two ranks (a prefix first). */
function compareRanks(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

export class DueQueue<T> {
  private readonly heap: DueEntry<T>[] = [];
  private scheduled = 0;

  /** How many entries are queued (cancelled ones included until they come out). */
  get size(): number {
    return this.heap.length;
  }

  /** Schedules `value` at `due`; ties come out ranked first (in rank order), then in the order scheduled. */
  push(due: number, value: T, rank?: readonly string[]): void {
    this.heap.push(rank ? { due, tie: this.scheduled++, rank, value } : { due, tie: this.scheduled++, value });
    this.up(this.heap.length - 1);
  }

  /** The earliest live entry, without taking it (dead ones on top are discarded on the way). */
  peek(isLive: (value: T) => boolean = () => true): DueEntry<T> | undefined {
    while (this.heap.length && !isLive(this.heap[0].value)) this.pop();
    return this.heap[0];
  }

  /** Takes the earliest entry. */
  pop(): DueEntry<T> | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length && last) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Every queued entry's value, in no particular order (to copy a queue). */
  values(): T[] {
    return this.heap.map((e) => e.value);
  }

  private before(a: DueEntry<T>, b: DueEntry<T>): boolean {
    if (a.due !== b.due) return a.due < b.due;
    if (a.rank || b.rank) {
      if (!b.rank) return true;
      if (!a.rank) return false;
      const c = compareRanks(a.rank, b.rank);
      if (c !== 0) return c < 0;
    }
    return a.tie < b.tie;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i], h[p])) return;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l], h[m])) m = l;
      if (r < h.length && this.before(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
