// A KV-v2 key's versions: a contiguous run of numbered versions, `first` … `first + size - 1` (the
// service keeps the newest `max_versions` and drops the oldest, so what a key holds never has a gap).
// Persistent: a write makes a new run that shares what it can with the one before.
//
// A persistent map per key (immutable.js `OrderedMap`, a hash map and a list of entries) would cost
// some 300 bytes for a key holding one version, and made the state 1.7x its JSON at 200
// clusters. Most keys hold a handful of versions (the service's default is 10), so a short run is a
// frozen array, copied on a write (a few pointers), and a run of one is that version alone; a long
// one (a mount or key configured to keep thousands) is an immutable.js `List`, where adding the
// newest and dropping the oldest cost O(log n).
// Canonical JSON and `JSON.stringify` print a run as the record it stands for (number → version).
//
// Generic in what a version is (`KvVersion`, state.ts, whose module names this one's type: `Versions`),
// so the two modules do not import each other.
import { List } from 'immutable';

/** Up to this many versions a run is a plain frozen array (or, holding one, the version itself); beyond, a persistent list. */
const SHORT = 32;

/**
 * The versions a run holds: one is held as itself (most keys hold one version: an array around it
 * would cost 56 bytes more a key, a tenth of a key's weight in a large map), a few as a frozen
 * array, none as an empty one, many as a List. A version is never an array nor a List itself.
 */
type Held<V> = V | readonly V[] | List<V>;

export class VersionRun<V> {
  private constructor(
    /** The oldest version held (0 when none is). */
    readonly first: number,
    private readonly held: Held<V>,
  ) {
    Object.freeze(this);
  }

  private static readonly EMPTY = new VersionRun<never>(0, Object.freeze([]));

  static empty<V>(): VersionRun<V> {
    return VersionRun.EMPTY as VersionRun<V>;
  }

  /** A run of the versions in `versions` (a short array, kept as it is when it holds two or more), the first numbered `first`. */
  private static short<V>(first: number, versions: readonly V[]): VersionRun<V> {
    if (versions.length === 0) return VersionRun.empty();
    return new VersionRun(first, versions.length === 1 ? versions[0] : Object.freeze(versions));
  }

  /** The versions held, as an array (a run of one as an array of one) or the list. */
  private view(): readonly V[] | List<V> {
    const held = this.held;
    return Array.isArray(held) || List.isList(held) ? (held as readonly V[] | List<V>) : [held as V];
  }

  get size(): number {
    const held = this.held;
    return Array.isArray(held) ? held.length : List.isList(held) ? (held as List<V>).size : 1;
  }

  /** The newest version held (0 when none is). */
  get last(): number {
    return this.size === 0 ? 0 : this.first + this.size - 1;
  }

  /** Version `n`, if the run holds it (`n` as a number or its decimal text). */
  get(n: number | string): V | undefined {
    const i = Number(n) - this.first;
    if (!Number.isInteger(i) || i < 0 || i >= this.size) return undefined;
    const held = this.held;
    return Array.isArray(held) ? (held as readonly V[])[i] : List.isList(held) ? (held as List<V>).get(i) : (held as V);
  }

  /**
   * The run with version `n` set: one it holds is replaced; the next after the newest (or any, in an
   * empty run) is added. With `dropThrough`, the versions up to it go in the same step (a write that
   * adds the newest and drops the oldest copies a short run once); by default none goes.
   */
  set(n: number | string, v: V, dropThrough = -Infinity): VersionRun<V> {
    const num = Number(n);
    if (this.size === 0) return new VersionRun(num, v).dropThrough(dropThrough);
    const i = num - this.first;
    if (!Number.isInteger(i) || i < 0 || i > this.size) throw new Error(`version ${n} cannot be set in a run of versions ${this.first}–${this.last}: versions are added in order`);
    const held = this.view();
    if (!Array.isArray(held)) {
      const list = held as List<V>;
      return new VersionRun(this.first, i === list.size ? list.push(v) : list.set(i, v)).dropThrough(dropThrough);
    }
    const arr = held as readonly V[];
    // The versions kept: from the first after `dropThrough`, in the short form's one copy.
    const from = Math.max(0, Math.min(dropThrough - this.first + 1, arr.length + 1));
    const length = Math.max(arr.length, i + 1) - from;
    // A short run holds at most SHORT versions, so it outgrows the short form only when a full one
    // gains its next version and drops none (from = 0): then it becomes a list.
    if (length > SHORT) return new VersionRun(this.first, List(arr).push(v));
    if (length <= 0) return VersionRun.empty();
    const next = new Array<V>(length);
    for (let k = 0; k < length; k++) next[k] = from + k === i ? v : arr[from + k];
    return VersionRun.short(this.first + from, next);
  }

  /** The run without its versions up to `n` (the oldest ones). */
  dropThrough(n: number): VersionRun<V> {
    const count = Math.min(this.size, n - this.first + 1);
    if (count <= 0) return this;
    if (count === this.size) return VersionRun.empty();
    const held = this.view();
    if (Array.isArray(held)) return VersionRun.short(this.first + count, (held as readonly V[]).slice(count));
    const rest = (held as List<V>).slice(count);
    return rest.size <= SHORT ? VersionRun.short(this.first + count, rest.toArray()) : new VersionRun(this.first + count, rest);
  }

  /** The version numbers held, oldest first, as text (the record's keys). */
  keys(): string[] {
    return Array.from({ length: this.size }, (_, i) => String(this.first + i));
  }

  /** (number, version) pairs, oldest first. */
  entries(): [number, V][] {
    const held = this.view();
    const vs = Array.isArray(held) ? (held as readonly V[]) : (held as List<V>).toArray();
    return vs.map((v, i) => [this.first + i, v]);
  }

  /** The record it stands for (version number → version), as the service's metadata lists them. */
  toJSON(): Record<string, V> {
    const out: Record<string, V> = {};
    for (const [n, v] of this.entries()) out[n] = v;
    return out;
  }
}
