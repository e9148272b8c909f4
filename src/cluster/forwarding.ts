// Where a client's KV write lands. On most clusters, where it was sent. Performance replication
// changes this: a write to a replicated mount of a performance secondary goes to its primary.
import type { ClusterState, MountEntry, SimState } from './state.js';

export type WriteLanding = { cluster: string } | { refuse: { status: number; error: string } };

/** The cluster a write to this mount of this cluster is applied on, or why it is refused. */
export function writeLanding(_state: SimState, cluster: ClusterState, _mount: MountEntry): WriteLanding {
  return { cluster: cluster.name };
}
