// The one form of the simulator's reducers (engine.ts `Reducer`): a plain function of the state
// before the event, returning the top-level fields it changes (new frozen objects, everything else
// shared) and what it touched (touched.ts: a WAL written, replication's links), or null. Most events change one cluster: `onCluster` edits that cluster alone with
// immer's `produce` and sets the result into the table of clusters, which remembers which cluster
// it set (cluster-table.ts `changedSince`). Hot events (a KV write, a WAL delivered) build their
// next cluster with literals instead (state.ts `copyCluster`), where `npm run bench` asked for it.
import { produce, setUseStrictIteration, type Draft } from 'immer';
import type { Answer, BaseEvent, Reducer, ReducerTable, Touch } from '../../kernel/engine.js';
import { nextState, type Clusters, type ClusterState, type SimState } from './state.js';
import type { SimEvent } from './events.js';
import { touchedBoth, writeWal } from './touched.js';

// Speed (profiled in BENCHMARKS.md): when immer finalises a draft it visits every property of
// every copied object. Its default "strict" iteration lists them with Reflect.ownKeys (symbols and
// non-enumerable properties too); the state is plain JSON-like data with neither, so Object.keys
// visits exactly the same properties, and is cheaper.
setUseStrictIteration(false);

// immer's auto-freeze stays on: what `produce` returns is frozen, as the engine's states are, and
// frozen subtrees are skipped when a draft is finalised, which is what makes sharing structure
// between clusters (a secondary holding its primary's storage) cheap.

/** A reducer of the simulator's state. */
export type SimReducer<E extends BaseEvent> = Reducer<SimState, E>;

/** An edit of one cluster, on an immer draft of it (assignments and deletes; the cluster before is never changed). */
export type ClusterEdit = (c: ClusterState) => void;

/**
 * The table with the cluster `name` edited by `edit` (immer's `produce` on that one cluster): a new
 * table sharing every other cluster, or the same table when the edit changed nothing.
 */
export function editCluster(clusters: Clusters, name: string, edit: ClusterEdit): Clusters {
  // A block body: a value the edit returns would be taken by immer as the new cluster.
  return clusters.set(
    name,
    produce(clusters.named(name), (d: Draft<ClusterState>) => {
      edit(d as unknown as ClusterState);
    }),
  );
}

/**
 * A reducer's answer for a new table of clusters, with what it touched (`touched`, when it reports
 * anything): the table, or null when it is the one the state had.
 */
export function clustersChanged(state: SimState, clusters: Clusters, touched?: readonly Touch[]): Answer<SimState> | null {
  if (clusters === state.clusters) return null;
  return touched?.length ? { clusters, touched } : { clusters };
}

/**
 * The reducer of an event on the cluster it names, as an edit of that cluster (`edit` may read the
 * state before the event, and reports what it touched in `touched`).
 */
export function onCluster<E extends BaseEvent & { cluster: string }>(edit: (c: ClusterState, e: E, before: SimState, touched: Touch[]) => void): SimReducer<E> {
  return (s, e) => {
    const touched: Touch[] = [];
    return clustersChanged(s, editCluster(s.clusters, e.cluster, (c) => edit(c, e, s, touched)), touched);
  };
}

/**
 * The reducer of an event that changes replicated storage or configuration of the cluster it names:
 * the edit, and the cluster writes a WAL (a write like any other, so its DR secondaries receive it
 * one link latency later, and its performance secondaries read it).
 */
export function onReplicatedCluster<E extends BaseEvent & { cluster: string }>(edit: (c: ClusterState, e: E, before: SimState) => void): SimReducer<E> {
  return onCluster((c, e: E, before, touched) => {
    edit(c, e, before);
    writeWal(c, e.at, touched);
  });
}

/**
 * `type`'s reducer in `table` followed by an upkeep (`then`), given the state before the event and
 * the one the reducer left: the two answers merged, the upkeep's last (what both touched, in order).
 */
export function followedBy<E extends SimEvent>(
  table: ReducerTable<SimState, SimEvent>,
  type: E['type'],
  then: (before: SimState, after: SimState, e: E) => Answer<SimState> | null,
): Reducer<SimState, SimEvent> {
  const first = table[type] as Reducer<SimState, SimEvent>;
  return (s, e) => {
    const changed = first(s, e);
    const after = changed ? nextState(s, changed, s.now) : s;
    const more = then(s, after, e as E);
    if (!changed || !more) return changed ?? more;
    const touched = touchedBoth(changed.touched, more.touched);
    return touched ? { ...changed, ...more, touched } : { ...changed, ...more };
  };
}
