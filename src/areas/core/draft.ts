// What a draft reducer edits. immer drafts plain objects only, and the world's clusters are a
// persistent table (cluster-table.ts), so a reducer written as an edit of a draft (most of them: a
// role moved, a token issued, a destination configured) is handed the state with its clusters opened
// as a plain record, name → cluster; the clusters it changed are then set into the table. Opening
// costs one pass over the clusters (kept per table: consecutive drafted events on the same table
// share it); the hot events (a KV write, a WAL delivered, time passing) have direct forms and never
// open it.
//
// Every area's reducers go through `throughDraft` (src/areas/sim-area.ts), so the world's reducer
// table holds direct forms only (engine.ts `DirectReducer`): each answers every event, drafting when
// the reducer has no direct form of its own or leaves the event to its draft form.
import { original, produce } from 'immer';
import type { BaseEvent, Reducer } from '../../kernel/engine.js';
import './reduce.js';
import { nextState, type Clusters, type ClusterState, type SimState } from './state.js';

/** The state as a draft reducer edits it: its clusters as a plain record. */
export type SimDraft = Omit<SimState, 'clusters'> & { clusters: Record<string, ClusterState> };

/** A reducer written as an edit of a draft, with an optional direct form for the events it can build without one. */
export type DirectForm<S, E extends BaseEvent> = (state: S, event: E) => Partial<S> | null | undefined;
export type DraftReducer<E extends BaseEvent> = ((draft: SimDraft, event: E) => void) & { direct?: DirectForm<SimState, E> };

/** The plain record each table opened to (shared while the table is). */
const records = new WeakMap<Clusters, Readonly<Record<string, ClusterState>>>();
/** The state each opened draft base came from: a draft reducer may read the state before its event (`stateBefore`). */
const openedFrom = new WeakMap<SimDraft, SimState>();

function recordOf(table: Clusters): Readonly<Record<string, ClusterState>> {
  let r = records.get(table);
  if (!r) records.set(table, (r = Object.freeze(table.toJSON())));
  return r;
}

/** The state before the event a draft is editing (the base it was opened from), clusters as a table. */
export function stateBefore(draft: SimDraft): SimState {
  const base = original(draft) as SimDraft | undefined;
  const state = base && openedFrom.get(base);
  if (!state) throw new Error('stateBefore: not a draft of an opened state');
  return state;
}

/** The cluster as it was before the event a draft is editing: the base of the draft, whose objects may be shared. */
export function clusterBefore(draft: SimDraft, name: string): ClusterState {
  return stateBefore(draft).clusters.named(name);
}

/**
 * The reducer as the world's table holds it: its own direct form where it has one and takes the
 * event, else its draft form applied to the opened state, folded back into a table.
 */
export function throughDraft<E extends BaseEvent>(reducer: DraftReducer<E>): Reducer<SimState, E> {
  return (state, event) => {
    const own = reducer.direct?.(state, event);
    if (own !== undefined) return own;
    // The clock moves before the reducer runs, as the engine's own draft form does (a reducer may read `now`).
    return edited(state, event.at > state.now ? event.at : state.now, (d) => reducer(d, event));
  };
}

/** A state edited as a draft (the clusters opened as a plain record): the new state, or the same one when the edit changed nothing. */
export function draftState(state: SimState, recipe: (draft: SimDraft) => void): SimState {
  const changed = edited(state, state.now, recipe);
  return changed === null ? state : nextState(state, changed, changed.now ?? state.now);
}

/** What an edit of the opened state changed, as new top-level fields (the engine's direct-form answer), or null. */
function edited(state: SimState, now: number, recipe: (draft: SimDraft) => void): Partial<SimState> | null {
  const opened: SimDraft = Object.freeze({ ...state, now, clusters: recordOf(state.clusters) });
  openedFrom.set(opened, state);
  const after = produce(opened, (d) => recipe(d as unknown as SimDraft));
  if (after === opened) return null;
  const changed: Partial<SimState> = {};
  for (const key of Object.keys(after) as (keyof SimDraft)[]) {
    if (key === 'clusters' || after[key] === opened[key]) continue;
    (changed as Record<string, unknown>)[key] = after[key];
  }
  if (after.clusters !== opened.clusters) changed.clusters = foldBack(state.clusters, opened.clusters, after.clusters);
  return changed;
}

/** The table with the clusters the draft changed (or added) set, in the record's order; it remembers which (changed.ts). */
function foldBack(table: Clusters, opened: Readonly<Record<string, ClusterState>>, edited: Readonly<Record<string, ClusterState>>): Clusters {
  let next = table;
  let count = 0;
  for (const name in edited) {
    count++;
    if (edited[name] === opened[name]) continue;
    next = next.set(name, edited[name]);
  }
  // The record holds every cluster of the new table unless one was removed: only then is it looked for.
  if (count !== next.names.length) for (const name in opened) if (!(name in edited)) throw new Error(`a reducer removed cluster "${name}": clusters are never removed`);
  // The edited record is the plain form of the new table: the next drafted event opens it for free.
  records.set(next, edited);
  return next;
}

/** Every reducer of a table through its draft. */
export function drafted<T extends Record<string, DraftReducer<never>>>(reducers: T): { [K in keyof T]: Reducer<SimState, any> } {
  return Object.fromEntries(Object.entries(reducers).map(([type, r]) => [type, throughDraft(r as DraftReducer<BaseEvent>)])) as { [K in keyof T]: Reducer<SimState, any> };
}
