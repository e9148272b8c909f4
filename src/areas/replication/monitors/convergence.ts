// Invariant `convergence`: when every link is healed and time passes with no new writes for longer
// than the convergence bound, every connected secondary holds exactly what its primary sends it.
//
// The bound. A change reaches a secondary in at most three link latencies: a (re)connection one
// latency after it can happen, the initial sync (merkle-sync or merkle-diff) one latency later, and
// a WAL one latency after the primary wrote it. The bound is five latencies (CONVERGENCE_LATENCIES)
// to leave room, and at least 1 ms so that a zero-latency world still needs time to pass.
//
// A primary that was down: its secondaries dial it with gRPC's connection backoff while nothing
// answers (1 s, times 1.6 after each failure, at most 120 s), so after it comes back a secondary's
// next attempt may still be one wait away. The wait in force after D ms of failures is at most
// 1 s + 0.6 D (the waits so far add up to (wait − 1 s) / 0.6), plus the failed attempt's latency:
// the monitor allows that much after the restart of a primary down for D ms (`redialAllowanceMs`).
//
// "No new writes" is read broadly: the quiet period restarts at every event, other than replication
// doing its own work (connections, syncs, WAL deliveries), that changes what replication carries or
// how: a cluster's storage, WAL or replication state, or the network (a write, a delete, a role
// change, a filter, a partition, a heal, a crash, a restart). The monitor finds those by comparing
// the state before and after each event (structural sharing makes that a few identity checks), so
// events of other concerns (sync jobs, merkle work, generation attempts) do not hold it back, and
// a world still settling after an operator's change is never judged. It judges only when every
// link is healed and every cluster is up. A connected secondary is one that
// follows a primary of its replication set over a link that can carry replication (not revoked).
// What it should hold is its primary's storage (DR: all of it, tokens and keyring included;
// performance: what the scope and the paths filter send it, see replica.ts).
import type { Clusters, ClusterState, ReplicationKind, SimState, Storage } from '../../core/state.js';
import { memoOnObject } from '../../../kernel/memo.js';
import { canonicalJson } from '../../../kernel/canonical.js';
import { KINDS, KIND_WORD, keyName, stateAfter, stateBefore, violation } from '../../monitoring/observe.js';
import { expectedReplica } from './replica.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';
import { keyNames, recordAt } from '../../core/keymap.js';

/** The bound, in link latencies. */
export const CONVERGENCE_LATENCIES = 5;

/** How long a healed world must stay quiet before every connected secondary must have caught up. */
export function convergenceBoundMs(latencyMs: number): number {
  return Math.max(CONVERGENCE_LATENCIES * latencyMs, 1);
}

/** gRPC's connection backoff, as the monitor restates it (see the head of this file). */
const BACKOFF = { initialMs: 1000, growth: 1.6, maxMs: 120_000 };

/** The longest a secondary may wait for its next dial after its primary, down for `downMs`, comes back. */
export function redialAllowanceMs(downMs: number, latencyMs: number): number {
  return Math.min(BACKOFF.maxMs, BACKOFF.initialMs + (BACKOFF.growth - 1) * downMs) + latencyMs;
}

/** Replication doing its own work (and the clock): these never restart the quiet period. */
const REPLICATION_AT_WORK = new Set<string>([
  'time-advanced',
  'replication-secondary-connected',
  'replication-secondary-synced',
  'replication-wal-delivered',
  'replication-secondary-disconnected',
]);

/** Whether an event changed what replication carries or how: the network, or a cluster's storage, WAL or replication state. */
export function changesReplication(before: SimState, after: SimState): boolean {
  if (before === after) return false;
  if (before.network !== after.network) return true;
  const names = new Set([...before.clusters.names, ...after.clusters.names]);
  for (const n of names) {
    const [b, a] = [before.clusters.get(n), after.clusters.get(n)];
    if (b === a) continue;
    if (!b || !a || b.storage !== a.storage || b.wal !== a.wal || b.replication !== a.replication) return true;
  }
  return false;
}

/** Whether every link is healed and every cluster up. */
export function healed(state: SimState): boolean {
  return Object.keys(state.network.cut).length === 0 && Object.keys(state.network.down).length === 0 && state.network.slow === undefined;
}

const same = (a: unknown, b: unknown) => a === b || canonicalJson(a) === canonicalJson(b);

/** How a secondary's storage differs from what it should hold: the KV keys, then other parts. */
export function storageDifference(held: Storage, expected: Storage, mirror: boolean): string[] {
  const diff: string[] = [];
  if (held.kv !== expected.kv) {
    for (const mount of new Set([...Object.keys(held.kv), ...Object.keys(expected.kv)])) {
      const [h, x] = [held.kv[mount], expected.kv[mount]];
      if (h === x) continue;
      for (const key of new Set([...keyNames(h), ...keyNames(x)])) if (!same(recordAt(h, key), recordAt(x, key))) diff.push(keyName(mount, key));
    }
  }
  if (!same(held.mounts, expected.mounts)) diff.push('its mounts');
  if (!same(held.namespaces, expected.namespaces)) diff.push('its namespaces');
  if (mirror && !same(held.tokens, expected.tokens)) diff.push('its tokens');
  if (mirror && !same(held.keyring, expected.keyring)) diff.push('its keyring');
  return diff;
}

/**
 * Whether the secondary follows a primary of its replication set that takes its credentials: the id
 * it was issued, with that token, not revoked there nor anywhere in the set (a revocation bars the
 * credentials set-wide: spec, revoke-secondary "stays barred"). Reachability is not asked: the
 * monitor judges only a healed world.
 */
function linkCarries(clusters: Clusters, kind: ReplicationKind, s: ClusterState): boolean {
  const r = s.replication[kind];
  if (r.role !== 'secondary.following' || r.primary === null) return false;
  const p = clusters.get(r.primary);
  if (!p || p.replication[kind].role !== 'primary' || p.replication[kind].clusterId !== r.clusterId) return false;
  const issued = p.replication[kind].issued;
  if (!Object.prototype.hasOwnProperty.call(issued, r.secondaryId)) return false;
  const token = issued[r.secondaryId];
  if (token.revoked || token.jti !== r.jti) return false;
  for (const c of clusters.list()) {
    const lists = [c.replication[kind].revokedCredentials, kind === 'performance' ? c.replication.dr.mirroredPerformance?.revokedCredentials : undefined];
    for (const list of lists) if (r.jti !== '' && list?.includes(r.jti)) return false;
  }
  return true;
}

/** What the secondary should hold from its primary now. */
function shouldHold(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState): Storage {
  return kind === 'dr' ? primary.storage : expectedReplica(kind, primary, secondary);
}

type Unconverged = Readonly<{ kind: ReplicationKind; secondary: string; primary: string; diff: readonly string[] }>;

/**
 * The connected secondaries that do not hold what their primary sends them, with the differences:
 * the answer reads only the table of clusters, and a quiet world is judged again at every step with
 * it unchanged (a performance secondary's expected replica is rebuilt and compared each time
 * otherwise), so the last answer for each table is kept, frozen, and handed out as it is.
 */
const unconvergedIn = memoOnObject((clusters: Clusters): readonly Unconverged[] => Object.freeze(differing(clusters).map((x) => (Object.freeze(x.diff), Object.freeze(x)))));

function unconverged(state: SimState): readonly Unconverged[] {
  return unconvergedIn(state.clusters);
}

function differing(clusters: Clusters): Unconverged[] {
  const out: Unconverged[] = [];
  for (const s of clusters.list()) {
    for (const kind of KINDS) {
      const r = s.replication[kind];
      if (!linkCarries(clusters, kind, s)) continue;
      if (r.primary === null) continue;
      const p = clusters.named(r.primary);
      if (s.storage === p.storage) continue;
      const diff = storageDifference(s.storage, shouldHold(kind, p, s), kind === 'dr');
      if (diff.length) out.push({ kind, secondary: s.name, primary: p.name, diff });
    }
  }
  return out;
}

export function convergence(): Monitor {
  return convergenceFrom(null, new Set());
}

/**
 * The monitor that remembers when the world last changed (null: it has seen nothing yet), until when
 * a restarted primary's secondaries may still be waiting to dial it, when each crashed cluster went
 * down, and what it reported.
 */
function convergenceFrom(since: number | null, reported: Set<string>, dialsBy = 0, downSince = new Map<string, number>(), slowBy = 0): Monitor {
  let quietSince = since;
  let redialsUntil = dialsBy;
  // What was sent on a slowed link arrives when it was due, after the heal: until then nothing is judged.
  let slowUntil = slowBy;
  return {
    id: 'convergence',
    kind: 'invariant',
    description: 'when every link is healed and time passes with no new writes for longer than the convergence bound, every connected secondary holds exactly what its primary sends it',
    observe(o: Observation) {
      quietSince ??= o.before.now;
      o.events.forEach((e, i) => {
        if (!REPLICATION_AT_WORK.has(e.type) && changesReplication(stateBefore(o, i), stateAfter(o, i))) quietSince = Math.max(quietSince!, e.at);
        const cluster = (e as { cluster?: unknown }).cluster;
        if (e.type === 'cluster-crashed' && typeof cluster === 'string' && !downSince.has(cluster)) downSince.set(cluster, e.at);
        if (e.type === 'cluster-restarted' && typeof cluster === 'string' && downSince.has(cluster)) {
          const allowance = redialAllowanceMs(e.at - downSince.get(cluster)!, stateAfter(o, i).network.latencyMs);
          redialsUntil = Math.max(redialsUntil, e.at + allowance);
          downSince.delete(cluster);
        }
        const slowed = stateBefore(o, i).network.slow;
        if (e.type === 'links-healed' && slowed) for (const ms of Object.values(slowed)) slowUntil = Math.max(slowUntil, e.at + ms);
      });
      const state = o.state;
      const bound = convergenceBoundMs(state.network.latencyMs);
      if (!healed(state) || state.now - quietSince <= bound || state.now - redialsUntil <= bound || state.now - slowUntil <= bound) {
        reported.clear();
        return [];
      }
      const findings: Finding[] = [];
      const stale = unconverged(state);
      const now = new Set(stale.map((x) => `${x.kind}|${x.secondary}|${x.primary}`));
      for (const key of [...reported]) if (!now.has(key)) reported.delete(key);
      for (const x of stale) {
        const key = `${x.kind}|${x.secondary}|${x.primary}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const shown = x.diff.length > 10 ? [...x.diff.slice(0, 10), `and ${x.diff.length - 10} more`] : x.diff;
        findings.push(
          violation(
            'convergence',
            state.now,
            [x.secondary, x.primary],
            `${x.secondary} (${KIND_WORD[x.kind]} secondary of ${x.primary}) does not hold what ${x.primary} sends it, ${state.now - Math.max(quietSince!, redialsUntil)} ms after the last change (bound ${bound} ms): ${shown.join(', ')} differ`,
          ),
        );
      }
      return findings;
    },
    fork: () => convergenceFrom(quietSince, new Set(reported), redialsUntil, new Map(downSince), slowUntil),
  };
}
