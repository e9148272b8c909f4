// A step's picture, taken as the step ends while its states are at hand: the topology after it (roles,
// who follows whom, streaming, partitions, crashes, external stores) and what changed, in plain words
// (replication roles, cluster ids, links cut and healed, crashes and restarts, WALs received).
// Narration prints the changes under a step; report.html and sequence.md draw the topology. A run
// keeps its pictures with its step records (step-spill.ts), so the report never folds a step's
// states again (timeline.ts): such a pass would make a second copy of every state of the run.
import { modeOf, roleLabel } from '../../models/replication-role.machine.js';
import { secondaryProgress } from '../areas/replication/index.js';
import type { ReplicationKind, SimState } from '../areas/core/state.js';
import { KIND_WORD, REPLICATION_KINDS } from '../areas/core/vocabulary.js';
import { formatMs } from '../kernel/clock.js';

/**
 * What a secondary's lag is worked out from: its primary's WAL position and when that WAL was
 * written, and the WAL it applied. The report reads the run's messages with these (a performance
 * secondary lacks only the WALs sent to it), once the run has ended (report-model.ts `lagOf`).
 */
export interface LagFacts {
  last: number;
  lastAt: number;
  applied: number;
}

export interface RolePicture {
  /** disabled | primary | secondary, as the status record's `mode`. */
  mode: 'disabled' | 'primary' | 'secondary';
  /** The role in people's words: `primary`, `secondary (demoted, no primary)`. */
  role: string;
  /** The cluster it follows, when a secondary that knows its primary. */
  follows: string | null;
  /** A secondary's status record: `state` and `connection_state`, in its own words. */
  status: { state: string; connection_state: string } | null;
  /** Whether a secondary is streaming (`state: stream-wals`, `connection_state: ready`). */
  streaming: boolean;
  /** Performance secondary: the mount and namespace paths its primary filters from it. */
  filtered: string[];
  /** A secondary: the primary's WAL index it has applied (`last_remote_wal`). */
  lastRemoteWal: number | null;
  /** A secondary that follows a primary the world knows: what its lag is worked out from. */
  lagFacts: LagFacts | null;
  /** A secondary whose credentials its primary revoked: barred until given a new activation token. */
  revoked: boolean;
}

export interface ClusterPicture {
  name: string;
  version: string;
  crashed: boolean;
  /** The replicated write-ahead log's last index (`last_wal`). */
  lastWal: number;
  dr: RolePicture;
  performance: RolePicture;
}

export interface TopologyPicture {
  /** Virtual time (ms). */
  at: number;
  clusters: ClusterPicture[];
  /** Links cut by a partition, as pairs of cluster names. */
  cut: [string, string][];
  /** External stores behind sync destinations, by destination key ("codehost/gh1"); a store is a network node. */
  stores: string[];
  /** Running clusters that are primaries of one replication set at once (the two-primaries hazard), per kind. */
  alarms: { kind: ReplicationKind; clusterId: string; primaries: string[] }[];
}

/** A step's picture: the topology after it, and what changed in it during the step. */
export interface StepPicture {
  changes: string[];
  topology: TopologyPicture;
}

/** The picture of a step that went from `before` to `after`. */
export function stepPicture(before: SimState, after: SimState): StepPicture {
  return { changes: topologyChanges(before, after), topology: topologyPicture(after) };
}

function rolePicture(state: SimState, name: string, kind: ReplicationKind): RolePicture {
  const r = state.clusters.named(name).replication[kind];
  const mode = modeOf(r.role);
  const status = streamingFields(state, name, kind);
  const filtered = kind === 'performance' && mode === 'secondary' ? [...r.dynamicFilter.mounts, ...r.dynamicFilter.namespaces] : [];
  const follows = mode === 'secondary' ? r.primary : null;
  const primary = follows ? state.clusters.get(follows) : undefined;
  const p = primary?.replication[kind];
  return {
    mode,
    role: roleLabel(r.role),
    follows,
    status,
    streaming: status !== null && status.state === 'stream-wals' && status.connection_state === 'ready',
    filtered,
    lastRemoteWal: mode === 'secondary' ? r.lastRemoteWal : null,
    lagFacts: primary ? { last: primary.wal.last, lastAt: primary.wal.lastAt, applied: r.lastRemoteWal } : null,
    revoked: p !== undefined && r.jti !== '' && p.revokedCredentials.includes(r.jti),
  };
}

/** The topology a state shows. */
export function topologyPicture(state: SimState): TopologyPicture {
  const names = [...state.clusters.names].sort();
  const alarms: TopologyPicture['alarms'] = [];
  for (const kind of REPLICATION_KINDS) {
    const sets = new Map<string, string[]>();
    for (const name of names) {
      const r = state.clusters.named(name).replication[kind];
      if (modeOf(r.role) !== 'primary' || state.network.down[name] === true) continue;
      sets.set(r.clusterId, [...(sets.get(r.clusterId) ?? []), name]);
    }
    for (const [clusterId, primaries] of sets) if (primaries.length > 1) alarms.push({ kind, clusterId, primaries });
  }
  return {
    at: state.now,
    clusters: names.map((name) => ({
      name,
      version: state.clusters.named(name).version,
      crashed: state.network.down[name] === true,
      lastWal: state.clusters.named(name).wal.last,
      dr: rolePicture(state, name, 'dr'),
      performance: rolePicture(state, name, 'performance'),
    })),
    cut: Object.keys(state.network.cut)
      .sort()
      .map((l) => l.split('|') as [string, string]),
    stores: Object.keys(state.stores).sort(),
    alarms,
  };
}

/** The fields of a secondary's status record that say how it streams; null when it is not a secondary. */
export function streamingFields(state: SimState, name: string, kind: ReplicationKind): { state: string; connection_state: string } | null {
  if (modeOf(state.clusters.named(name).replication[kind].role) !== 'secondary') return null;
  return secondaryProgress(state, state.clusters.named(name), kind);
}

/**
 * How a secondary's streaming moved, in the status record's own fields: "status: state idle,
 * connection_state connecting" for a new secondary, else only the fields that changed, each
 * "state stream-wals → idle"; null when nothing changed.
 */
function streamingChange(a: { state: string; connection_state: string } | null, b: { state: string; connection_state: string }): string | null {
  if (a === null) return `status: state ${b.state}, connection_state ${b.connection_state}`;
  const parts: string[] = [];
  if (a.state !== b.state) parts.push(`state ${a.state} → ${b.state}`);
  if (a.connection_state !== b.connection_state) parts.push(`connection_state ${a.connection_state} → ${b.connection_state}`);
  return parts.length ? `status: ${parts.join(', ')}` : null;
}


/** One line per change, sorted by cluster. */
export function topologyChanges(before: SimState, after: SimState): string[] {
  const lines: string[] = [];
  if (before === after) return lines;
  // Causes first: what happened to the network, then what it did to the clusters.
  const na = before.network;
  const nb = after.network;
  if (na !== nb) {
    for (const l of Object.keys(nb.cut)) if (!na.cut[l]) lines.push(`link ${l.replace('|', '–')} cut`);
    for (const l of Object.keys(na.cut)) if (!nb.cut[l]) lines.push(`link ${l.replace('|', '–')} healed`);
    for (const [l, ms] of Object.entries(nb.slow ?? {})) if (na.slow?.[l] !== ms) lines.push(`link ${l.replace('|', '–')} slowed to ${formatMs(ms)} one way`);
    for (const l of Object.keys(na.slow ?? {})) if (nb.slow?.[l] === undefined) lines.push(`link ${l.replace('|', '–')} back to its latency`);
    for (const c of Object.keys(nb.down)) if (!na.down[c]) lines.push(`${c} crashed`);
    for (const c of Object.keys(na.down)) if (!nb.down[c]) lines.push(`${c} restarted`);
  }
  for (const name of [...after.clusters.names].sort()) {
    const a = before.clusters.get(name);
    const b = after.clusters.named(name);
    if (!a) continue;
    for (const kind of REPLICATION_KINDS) {
      const ra = a.replication[kind];
      const rb = b.replication[kind];
      if (ra !== rb) {
        if (ra.role !== rb.role) lines.push(`${name}: ${KIND_WORD[kind]} ${roleLabel(ra.role)} → ${roleLabel(rb.role)}`);
        if (ra.clusterId !== rb.clusterId && rb.clusterId !== '' && modeOf(rb.role) !== 'disabled')
          lines.push(`${name}: ${KIND_WORD[kind]} cluster_id ${ra.clusterId === '' ? 'set to' : 'changed to'} ${rb.clusterId.slice(0, 8)}…`);
        if (ra.primary !== rb.primary) lines.push(rb.primary ? `${name}: follows ${rb.primary} (${KIND_WORD[kind]})` : `${name}: no longer follows a ${KIND_WORD[kind]} primary`);
      }
      // Streaming also moves with the network (a partition, a crash), not only with the cluster.
      const sb = streamingFields(after, name, kind);
      const change = sb === null ? null : streamingChange(streamingFields(before, name, kind), sb);
      if (change !== null) lines.push(`${name}: ${KIND_WORD[kind]} ${change}`);
      if (rb.lastRemoteWal > ra.lastRemoteWal) lines.push(`${name}: received ${KIND_WORD[kind]} WALs up to ${rb.lastRemoteWal}`);
    }
    if (a.storage !== b.storage && Object.keys(b.storage.kv).length === 0 && Object.keys(a.storage.kv).length > 0) lines.push(`${name}: storage wiped`);
  }
  return lines;
}
