// What changed in the topology between two states, in plain words: replication roles, cluster ids,
// links cut and healed, crashes and restarts, WALs received. Narration prints these under a step.
import { modeOf, roleLabel } from '../../models/replication-role.machine.js';
import { replicationStatus } from '../areas/replication/index.js';
import type { ReplicationKind, SimState } from '../areas/core/state.js';
import { KIND_WORD } from '../areas/core/vocabulary.js';
import { formatMs } from '../kernel/clock.js';

/** The fields of a secondary's status record that say how it streams; null when it is not a secondary. */
export function streamingFields(state: SimState, name: string, kind: ReplicationKind): { state: string; connection_state: string } | null {
  if (modeOf(state.clusters.named(name).replication[kind].role) !== 'secondary') return null;
  const s = replicationStatus(state, name, kind) as { state?: string; connection_state?: string };
  return { state: s.state ?? '?', connection_state: s.connection_state ?? '?' };
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
    for (const kind of ['dr', 'performance'] as ReplicationKind[]) {
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
