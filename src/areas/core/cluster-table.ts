// The world's clusters by name, as a persistent table: a change to one cluster makes a new
// table that shares everything else, in O(log n), where a plain record had to be copied whole — a
// 1,000-entry object is in V8's dictionary mode, and copying it cost some 180 µs, once per event that
// changed any cluster (BENCHMARKS.md §8).
//
// The names are fixed when the world is created (in the order the `world-created` event lists the
// clusters), so a table is a name → position index, shared by every table of a world, and an
// immutable.js `List` of the clusters in that order: a lookup is a property read and a vector read
// (about as fast as a plain object's, measured: 10 ns at 4 clusters, 19 at 1,000), a change is
// `List.set`. Canonical JSON and `JSON.stringify` print a table as the record it stands for
// (`toJSON`), so state hashes and every output are what they were when it was a plain object.
//
// A table also carries values derived from all its clusters (an area's indexes: who follows whom,
// which credentials are revoked), made when first asked for and handed on to the next table as long
// as the clusters a change sets keep them valid (`Derived.keeps`), so a KV write or a WAL delivered
// does not rebuild an index over every cluster.
//
// A table made by setting a cluster remembers which table it was made from (by that table's mark,
// not the table itself) and the name it set, so which clusters an event changed (`changedSince`)
// costs a look at what it set, not a comparison of every cluster: the bus's sources and the WAL
// snapshots' upkeep read it after every event. No table holds the tables before it: not even
// weakly, since V8 keeps a WeakRef's target alive until the job that made it ends, and a run whose
// steps never wait on I/O is one job (it kept every table of a 100,000-write run).
import { List } from 'immutable';

/** A name's position in the world's order; null-prototype, so no request-derived name finds an inherited member. */
type Index = Readonly<Record<string, number>>;

/**
 * A value derived from every cluster of a table (an index). `keeps(was, now)` says whether setting a
 * cluster from `was` to `now` leaves the value as it was (the fields it reads did not change).
 */
export interface Derived<C, T> {
  keeps(was: C, now: C): boolean;
  build(clusters: ClusterTable<C & { readonly name: string }>): T;
}

/** A table's mark: what the tables made from it keep of it, an empty object (never the table). */
type Mark = object;

/**
 * One `set` a table was made by: the mark of the table it was made from, the name it set (as a
 * one-name list), and the `set` that made that table, as long as the chain is at most STEPS_BACK long.
 */
interface MadeFrom {
  base: Mark;
  names: readonly string[];
  before: MadeFrom | undefined;
  length: number;
}

const NONE: readonly string[] = Object.freeze([]);

/** How many `set`s back `changedSince` follows the tables made from one another (an event sets a handful of clusters). */
const STEPS_BACK = 8;

/** What a table made lazily: its clusters as an array, and derived values (a table is frozen; this is its one mutable part). */
interface Memo {
  list?: readonly unknown[];
  derived?: [Derived<any, unknown>, unknown][];
}

/**
 * The table, generic in what a cluster is (`ClusterState`, state.ts, whose module names this one's type:
 * `Clusters`), so the two modules do not import each other.
 */
export class ClusterTable<ClusterState extends { readonly name: string }> implements Iterable<ClusterState> {
  private readonly memo: Memo;
  private readonly mark: Mark = {};

  private constructor(
    private readonly index: Index,
    /** The clusters' names, in the world's order. */
    readonly names: readonly string[],
    private readonly clusters: List<ClusterState>,
    derived?: [Derived<any, unknown>, unknown][],
    private readonly from?: MadeFrom,
  ) {
    this.memo = derived ? { derived } : {};
    Object.freeze(this);
  }

  /** The table of no cluster (a world before its `world-created` event). */
  static empty<C extends { readonly name: string }>(): ClusterTable<C> {
    return EMPTY as ClusterTable<never> as ClusterTable<C>;
  }

  /** The cluster of that name, if there is one (any string is safe to ask: own names only). */
  get(name: string): ClusterState | undefined {
    const i = this.index[name];
    return i === undefined ? undefined : this.clusters.get(i);
  }

  /** The cluster of that name; asking for one the world does not have is a programming error. */
  named(name: string): ClusterState {
    const c = this.get(name);
    if (c === undefined) throw new Error(`the world has no cluster "${name}" (clusters: ${this.names.join(', ')})`);
    return c;
  }

  has(name: string): boolean {
    return this.index[name] !== undefined;
  }

  /** The clusters, in the world's order. */
  list(): readonly ClusterState[] {
    return (this.memo.list ??= Object.freeze(this.clusters.toArray())) as readonly ClusterState[];
  }

  [Symbol.iterator](): Iterator<ClusterState> {
    return this.list()[Symbol.iterator]();
  }

  /** A value derived from every cluster: made once for this table, and carried to the tables made from it while it stays valid. */
  derived<T>(key: Derived<ClusterState, T>): T {
    const held = this.memo.derived;
    if (held) for (const [k, v] of held) if (k === key) return v as T;
    const value = key.build(this);
    // A new list, never one changed in place: tables made from this one may share the list it had.
    this.memo.derived = held ? [...held, [key, value]] : [[key, value]];
    return value;
  }

  /** The table with the cluster of that name set (a new name goes last); the same table when nothing changes. */
  set(name: string, cluster: ClusterState): ClusterTable<ClusterState> {
    const i = this.index[name];
    if (i !== undefined) {
      const was = this.clusters.get(i)!;
      if (was === cluster) return this;
      const before = this.from !== undefined && this.from.length < STEPS_BACK ? this.from : undefined;
      const from: MadeFrom = { base: this.mark, names: [name], before, length: before ? before.length + 1 : 1 };
      return new ClusterTable(this.index, this.names, this.clusters.set(i, cluster), this.kept(was, cluster), from);
    }
    // A new cluster: only the world's creation adds them, so copying the index here costs nothing that
    // matters; every derived value is made again.
    const index: Record<string, number> = Object.assign(Object.create(null), this.index);
    index[name] = this.names.length;
    // No record of the table it was made from: only the world's creation adds clusters (which clusters
    // it changed is then found by comparing them).
    return new ClusterTable(Object.freeze(index), Object.freeze([...this.names, name]), this.clusters.push(cluster));
  }

  /**
   * The names of the clusters that differ from `before` (changed or added), in the table's order:
   * read from the tables this one was made from when it was made from `before` by a few `set`s,
   * else by comparing the clusters one by one (a fork's first look, a test).
   */
  changedSince(before: ClusterTable<ClusterState>): readonly string[] {
    if (before === this) return NONE;
    const from = this.from;
    if (from !== undefined && from.base === before.mark) return from.names;
    let names: string[] | null = null;
    for (let step: MadeFrom | undefined = from; step !== undefined; step = step.before) {
      const name = step.names[0];
      if (!(names ??= []).includes(name)) names.push(name);
      // A cluster set and then set back to what it was did not change.
      if (step.base === before.mark) return names.filter((n) => before.get(n) !== this.get(n)).sort((a, b) => this.index[a] - this.index[b]);
    }
    const changed: string[] = [];
    for (const name of this.names) if (before.get(name) !== this.get(name)) changed.push(name);
    return changed;
  }

  /** The derived values that setting `was` to `now` leaves valid (the same list when it leaves them all). */
  private kept(was: ClusterState, now: ClusterState): [Derived<any, unknown>, unknown][] | undefined {
    const held = this.memo.derived;
    if (!held) return undefined;
    let out: [Derived<any, unknown>, unknown][] | undefined;
    for (let i = 0; i < held.length; i++) {
      if (held[i][0].keeps(was, now)) {
        if (out) out.push(held[i]);
      } else out ??= held.slice(0, i);
    }
    return out ?? held;
  }

  /** The record it stands for (name → cluster, in the world's order): what canonical JSON and `JSON.stringify` print. */
  toJSON(): Record<string, ClusterState> {
    const out: Record<string, ClusterState> = {};
    const list = this.list();
    for (let i = 0; i < list.length; i++) out[this.names[i]] = list[i];
    return out;
  }
}

const EMPTY = new (ClusterTable as unknown as new (index: Index, names: readonly string[], clusters: List<never>) => ClusterTable<never>)(Object.freeze(Object.create(null)) as Index, Object.freeze([]), List());
