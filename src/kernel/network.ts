// The simulated network between clusters: links with a latency, partitions that cut links both
// ways, and clusters that crash (stop answering and streaming, storage kept) and restart. Faults are
// ordinary events in the log, so a replay cuts and heals the same links at the same moments.
import type { BaseEvent } from './engine.js';
import { hasOwn, own } from './own.js';

export interface NetworkState {
  /** One-way latency of every link, in ms: a message sent at t arrives at t + latencyMs. */
  latencyMs: number;
  /** Cut links, keyed "a|b" with a < b. */
  cut: Record<string, true>;
  /** Crashed clusters. */
  down: Record<string, true>;
  /**
   * Slowed links, keyed "a|b": the one-way latency (ms) of a message sent on the link while it is
   * slowed (the link's latency instead of `latencyMs`). Absent while no link is slowed, so a world
   * that never slows a link keeps the state (and state hash) it always had.
   */
  slow?: Record<string, number>;
}

/** A partition was injected: every listed link is cut both ways. */
export interface LinksCut extends BaseEvent {
  type: 'links-cut';
  links: [string, string][];
}
/**
 * Links were slowed: a message sent on one of them from now on takes `latencyMs` to arrive (one
 * way), until the link is healed (`links-healed` restores its latency; what is on its way then
 * arrives when it was due).
 */
export interface LinksSlowed extends BaseEvent {
  type: 'links-slowed';
  links: [string, string][];
  latencyMs: number;
}
/** Links were healed: the listed ones, or every link when `all` (cut links restored, slowed ones back to the network's latency). */
export interface LinksHealed extends BaseEvent {
  type: 'links-healed';
  links: [string, string][] | 'all';
}
/** A cluster crashed: it answers nothing and streams nothing until restarted; storage is kept. */
export interface ClusterCrashed extends BaseEvent {
  type: 'cluster-crashed';
  cluster: string;
  /**
   * The connections the crash ends, as the area that holds them names them ("dr:west": west's DR
   * connection to its primary), decided when the crash was recorded.
   */
  ended: string[];
}
/** A crashed cluster came back, unsealed, with its storage. */
export interface ClusterRestarted extends BaseEvent {
  type: 'cluster-restarted';
  cluster: string;
}

/**
 * A message on the bus (bus.ts) was dropped when it fell due: its receiver was down, or the receiving
 * area found the link it travelled reset. Changes no state: the bus reads it.
 */
export interface MessageDropped extends BaseEvent {
  type: 'message-dropped';
  id: string;
  reason: string;
}

export type NetworkEvent = LinksCut | LinksSlowed | LinksHealed | ClusterCrashed | ClusterRestarted | MessageDropped;

export const DEFAULT_LATENCY_MS = 20;

export function initialNetwork(latencyMs = DEFAULT_LATENCY_MS): NetworkState {
  return { latencyMs, cut: {}, down: {} };
}

/** The key of the undirected link between two clusters. */
export function linkKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** The one-way latency of a message sent now between two nodes: the link's own while it is slowed, else the network's. */
export function linkLatency(net: NetworkState, a: string, b: string): number {
  return net.slow?.[linkKey(a, b)] ?? net.latencyMs;
}

/** The network's longest one-way latency now (a slowed link's, if any is slower). */
export function longestLatency(net: NetworkState): number {
  let longest = net.latencyMs;
  if (net.slow) for (const ms of Object.values(net.slow)) longest = Math.max(longest, ms);
  return longest;
}

/** Whether a cluster is running (not crashed). */
export function isUp(net: NetworkState, cluster: string): boolean {
  return net.down[cluster] !== true;
}

/** Whether a message from one cluster reaches the other now: both running and the link not cut. */
export function reachable(net: NetworkState, from: string, to: string): boolean {
  if (!isUp(net, from) || !isUp(net, to)) return false;
  return from === to || net.cut[linkKey(from, to)] !== true;
}

/**
 * The links a `partition` step cuts. A pair `[a, b]` cuts that link; a list of groups
 * `[[a], [b, c]]` cuts every link between clusters of different groups.
 */
export function linksOfPartition(groups: string[][]): [string, string][] {
  const links: [string, string][] = [];
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++)
      for (const a of groups[i]) for (const b of groups[j]) if (a !== b) links.push(a < b ? [a, b] : [b, a]);
  return links;
}

type WithNetwork = { network: NetworkState };

/** The state's network with one of its records replaced (a new frozen object, the rest shared). */
function withNetwork(s: WithNetwork, change: Partial<NetworkState>): { network: NetworkState } {
  return { network: Object.freeze({ ...s.network, ...change }) };
}

/** `record` with `keys` set to true: a new frozen copy, or null when each already was. */
function withKeys(record: Record<string, true>, keys: readonly string[]): Record<string, true> | null {
  let next: Record<string, true> | null = null;
  for (const k of keys) {
    if (own(next ?? record, k) === true) continue;
    next ??= { ...record };
    next[k] = true;
  }
  return next && Object.freeze(next);
}

/** `record` without `keys`: a new frozen copy, or null when none was there. */
function withoutKeys(record: Record<string, true>, keys: readonly string[]): Record<string, true> | null {
  let next: Record<string, true> | null = null;
  for (const k of keys) {
    if (!hasOwn(next ?? record, k)) continue;
    next ??= { ...record };
    delete next[k];
  }
  return next && Object.freeze(next);
}

/**
 * The network's slowed links once `keys` (null: every link) are healed, or null when that changes
 * none; `slow` is absent from the network once no link is slowed.
 */
function healedSlow(net: NetworkState, keys: readonly string[] | null): NetworkState | null {
  if (!net.slow) return null;
  const left = keys === null ? [] : Object.entries(net.slow).filter(([k]) => !keys.includes(k));
  if (left.length === Object.keys(net.slow).length) return null;
  const { slow: _slow, ...rest } = net;
  return left.length ? { ...rest, slow: Object.freeze(Object.fromEntries(left)) } : rest;
}

/**
 * Reducers of the network's events, over any state that has a `network` field. Faults are frequent
 * in property runs (a quarter of their events), so each builds only what changes: a new network
 * only when a record changed (cutting a link already cut changes nothing), except a heal of every
 * link, which always sets a new empty record.
 */
export const networkReducers = {
  'links-cut': (s: WithNetwork, e: LinksCut) => {
    const cut = withKeys(s.network.cut, e.links.map(([a, b]) => linkKey(a, b)));
    return cut && withNetwork(s, { cut });
  },
  'links-slowed': (s: WithNetwork, e: LinksSlowed) => {
    // Slowing a link to the latency it already has changes nothing.
    if (e.links.every(([a, b]) => s.network.slow?.[linkKey(a, b)] === e.latencyMs)) return null;
    const slow = { ...(s.network.slow ?? {}) };
    for (const [a, b] of e.links) slow[linkKey(a, b)] = e.latencyMs;
    return withNetwork(s, { slow: Object.freeze(slow) });
  },
  'links-healed': (s: WithNetwork, e: LinksHealed) => {
    const keys = e.links === 'all' ? null : e.links.map(([a, b]) => linkKey(a, b));
    const unslowed = healedSlow(s.network, keys);
    const base = { network: unslowed ?? s.network };
    if (keys === null) return withNetwork(base, { cut: Object.freeze({}) });
    const cut = withoutKeys(s.network.cut, keys);
    if (cut) return withNetwork(base, { cut });
    return unslowed && { network: Object.freeze(unslowed) };
  },
  'cluster-crashed': (s: WithNetwork, e: ClusterCrashed) => {
    const down = withKeys(s.network.down, [e.cluster]);
    return down && withNetwork(s, { down });
  },
  'cluster-restarted': (s: WithNetwork, e: ClusterRestarted) => {
    const down = withoutKeys(s.network.down, [e.cluster]);
    return down && withNetwork(s, { down });
  },
  // Only the clock moves (the engine's part): the drop is the bus's record.
  'message-dropped': (_s: WithNetwork, _e: MessageDropped) => null,
};
