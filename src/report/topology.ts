// What changed in the topology between two states, in plain words: replication roles, cluster ids,
// links cut and healed, crashes and restarts, WALs received. Narration prints these under a step.
import { modeOf, roleLabel } from '../../models/replication-role.machine.js';
import { replicationStatus } from '../areas/replication/index.js';
import type { ReplicationKind, SimState } from '../areas/cluster/state.js';
import { KIND_WORD } from '../areas/vocabulary.js';

/** A secondary's streaming state as its status record shows it, e.g. "stream-wals, ready". */
function streaming(state: SimState, name: string, kind: ReplicationKind): string | null {
  if (modeOf(state.clusters.named(name).replication[kind].role) !== 'secondary') return null;
  const s = replicationStatus(state, name, kind) as { state?: string; connection_state?: string };
  return `${s.state ?? '?'}, ${s.connection_state ?? '?'}`;
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
    for (const c of Object.keys(nb.down)) if (!na.down[c]) lines.push(`${c} crashed`);
    for (const c of Object.keys(na.down)) if (!nb.down[c]) lines.push(`${c} restarted`);
  }
  for (const name of [...after.clusters.names].sort()) {
    const a = before.clusters.get(name);
    const b = after.clusters.named(name);
    if (!a) continue;
    // Streaming state also moves with the network (a partition, a crash), not only with the cluster.
    for (const kind of ['dr', 'performance'] as ReplicationKind[]) {
      const sa = streaming(before, name, kind);
      const sb = streaming(after, name, kind);
      if (sb !== null && sa !== sb) lines.push(`${name}: ${KIND_WORD[kind]} streaming ${sa ?? 'not a secondary'} → ${sb}`);
    }
    if (a === b) continue;
    for (const kind of ['dr', 'performance'] as ReplicationKind[]) {
      const ra = a.replication[kind];
      const rb = b.replication[kind];
      if (ra === rb) continue;
      if (ra.role !== rb.role) lines.push(`${name}: ${KIND_WORD[kind]} ${roleLabel(ra.role)} → ${roleLabel(rb.role)}`);
      if (ra.clusterId !== rb.clusterId && rb.clusterId !== '' && modeOf(rb.role) !== 'disabled')
        lines.push(`${name}: ${KIND_WORD[kind]} cluster_id ${ra.clusterId === '' ? 'set to' : 'changed to'} ${rb.clusterId.slice(0, 8)}…`);
      if (ra.primary !== rb.primary) lines.push(rb.primary ? `${name}: follows ${rb.primary} (${KIND_WORD[kind]})` : `${name}: no longer follows a ${KIND_WORD[kind]} primary`);
      if (rb.lastRemoteWal > ra.lastRemoteWal) lines.push(`${name}: received ${KIND_WORD[kind]} WALs up to ${rb.lastRemoteWal}`);
    }
    if (a.storage !== b.storage && Object.keys(b.storage.kv).length === 0 && Object.keys(a.storage.kv).length > 0) lines.push(`${name}: storage wiped`);
  }
  return lines;
}
