// A persistent map from text keys, kept in sorted order: a B+ tree (sorted-btree) whose nodes hold
// their keys and values side by side in two arrays, so a key costs two slots of a node and a share
// of the node (some 50 bytes with the checkpoints a run keeps), where a hash trie with an ordering
// list (immutable.js `OrderedMap`) costs ~240 bytes: an entry node, two pair arrays and a list slot.
// A write copies the path to the key's leaf (a few nodes of up to 32 keys) and shares the rest.
//
// Sorted as text, by UTF-16 code unit (the order of `Array.prototype.sort` and of `<`): the order
// canonical JSON prints members in and LIST answers in, so printing and listing read the tree in
// place. (The service sorts by UTF-8 bytes, which differs only between a character above U+FFFF
// and one from U+E000 to U+FFFF.)
//
// A value of this class never changes what it holds: it is a frozen wrapper around a tree nobody
// else holds, read, or copied by `with`/`without` (which only mark the nodes the copy now shares).
// The empty tree is a named export, read alike by Node's loader of CommonJS, tsx and the bundler
// (the class itself is the module's `default`, which each of them reads differently).
import { EmptyBTree } from 'sorted-btree';
import type * as btree from 'sorted-btree';

type BTree<K, V> = btree.default<K, V>;

export class SortedMap<V> implements Iterable<[string, V]> {
  private constructor(private readonly tree: BTree<string, V>) {
    Object.freeze(this);
  }

  private static readonly NONE = new SortedMap<never>(EmptyBTree as unknown as BTree<string, never>);

  static empty<V>(): SortedMap<V> {
    return SortedMap.NONE as SortedMap<V>;
  }

  /** A map holding these pairs (a later pair for a key replaces an earlier one). */
  static of<V>(pairs: Iterable<readonly [string, V]>): SortedMap<V> {
    let map = SortedMap.empty<V>();
    for (const [k, v] of pairs) map = map.set(k, v);
    return map;
  }

  static isSortedMap(value: unknown): value is SortedMap<unknown> {
    return value instanceof SortedMap;
  }

  get size(): number {
    return this.tree.size;
  }

  /** The key's value, if held. Safe for any key (no prototype lookup). */
  get(key: string): V | undefined {
    return this.tree.get(key);
  }

  has(key: string): boolean {
    return this.tree.has(key);
  }

  /** The map with `key` set to `value`; this one is unchanged. */
  set(key: string, value: V): SortedMap<V> {
    return new SortedMap(this.tree.with(key, value, true));
  }

  /** The map without `key` (this one when it holds no such key). */
  delete(key: string): SortedMap<V> {
    return this.tree.has(key) ? new SortedMap(this.tree.without(key)) : this;
  }

  /** The keys, in order. */
  keys(): IterableIterator<string> {
    return this.tree.keys();
  }

  /** The pairs, in order; from the first key not below `low` when given. */
  entries(low?: string): IterableIterator<[string, V]> {
    return this.tree.entries(low);
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.tree.entries();
  }

  /** JSON.stringify prints the map as the object it stands for (a key `__proto__` an own member like any other). */
  toJSON(): Record<string, V> {
    const out: Record<string, V> = Object.create(null);
    for (const [k, v] of this.tree.entries()) out[k] = v;
    return out;
  }
}
