// Where a client's KV write lands. On most clusters, where it was sent. Performance replication
// changes this: a performance secondary serves reads from its own copy, but a write to a replicated
// mount goes to its primary (transparently, as the service forwards it) and comes back by streaming.
// Its local mounts are its own, so writes to them stay. A performance secondary with no primary to
// forward to (demoted, told to forget its primary, or cut off from it) refuses replicated writes.
import { modeOf } from '../../../models/replication-role.machine.js';
import { linkDown } from './link.js';
import type { ClusterState, MountEntry, SimState } from '../core/state.js';
import type { Landing, WriteLanding } from '../core/http/route.js';
import { replicationRefusals as R } from './refusals.js';

// The service's `logical.ErrReadOnly` (sdk/logical/storage.go) is `replication.readOnly` in refusals.ts.

/**
 * The cluster a write of replicated configuration (sync destinations and associations, the plugin
 * catalog) sent to this cluster is applied on, or why it is refused: as a write to a
 * replicated mount, it goes to the performance primary of a performance secondary.
 */
export function configurationLanding(state: SimState, cluster: ClusterState): WriteLanding {
  const r = cluster.replication.performance;
  if (modeOf(r.role) !== 'secondary') return { cluster: cluster.name };
  if (r.role !== 'secondary.following' || r.primary === null) return { refuse: R.readOnly() };
  const down = linkDown(state, 'performance', cluster);
  if (down !== null) return { refuse: R.forwardingFailed(r.primaryApiAddr, down) };
  return { cluster: r.primary };
}

/** The cluster a write to this mount of this cluster is applied on, or why it is refused. */
export function writeLanding(state: SimState, cluster: ClusterState, mount: MountEntry): WriteLanding {
  const r = cluster.replication.performance;
  if (mount.local || modeOf(r.role) !== 'secondary') return { cluster: cluster.name };
  if (r.role !== 'secondary.following' || r.primary === null) return { refuse: R.readOnly() };
  const down = linkDown(state, 'performance', cluster);
  if (down !== null) return { refuse: R.forwardingFailed(r.primaryApiAddr, down) };
  // The primary applies the write to its own mount of that path; one the primary no longer has cannot take it.
  if (!state.clusters.named(r.primary).storage.mounts[mount.path] || state.clusters.named(r.primary).storage.mounts[mount.path].local) return { refuse: R.readOnly() };
  return { cluster: r.primary };
}

/** The forwarding rule as the routing hands it to every request (cluster/http/route.ts `Landing`). */
export const landing: Landing = { configuration: configurationLanding, write: writeLanding };
