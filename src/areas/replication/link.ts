// The link between a secondary and its primary, over the simulated network: which cluster answers
// at an address, whether the link can carry replication now, and who follows a primary. The status
// record and the streaming process both read these, so what status shows is what streaming does.
import { reachable } from '../../kernel/network.js';
import type { ClusterState, ReplicationKind, SimState } from '../cluster/state.js';
import type { LinkDownReason } from './events.js';

/** "https://east.replsim.test:8200/" and "https://east.replsim.test:8200" are one address. */
function sameAddress(a: string, b: string): boolean {
  const norm = (x: string) => x.trim().replace(/\/+$/, '').toLowerCase();
  return norm(a) === norm(b);
}

/** The cluster whose API or cluster address this is, if any. */
export function clusterAt(state: SimState, address: string): ClusterState | null {
  if (address.trim() === '') return null;
  for (const c of Object.values(state.clusters)) if (sameAddress(c.apiAddr, address) || sameAddress(c.clusterAddr, address)) return c;
  return null;
}

/** The cluster address a primary gives its secondaries: the one set at enable or promote, else its own. */
export function advertisedClusterAddr(primary: ClusterState, kind: ReplicationKind): string {
  return primary.replication[kind].primaryClusterAddr || primary.clusterAddr;
}

/**
 * Why the link from a following secondary to its primary cannot carry replication now, or null
 * when it can: both running and reachable, the other side a primary of the same replication set,
 * and the secondary not revoked there. A primary that never issued this secondary's id (it was
 * promoted after the secondary joined) accepts it by its replication set.
 */
export function linkDown(state: SimState, kind: ReplicationKind, secondary: ClusterState): LinkDownReason | null {
  const r = secondary.replication[kind];
  if (r.role !== 'secondary.following' || r.primary === null) return 'unreachable';
  const primary = state.clusters[r.primary];
  if (!primary || !reachable(state.network, secondary.name, primary.name)) return 'unreachable';
  const p = primary.replication[kind];
  if (p.role !== 'primary') return 'not-a-primary';
  if (p.clusterId !== r.clusterId) return 'other-replication-set';
  const issued = p.issued[r.secondaryId];
  if (issued && (issued.revoked || issued.jti !== r.jti)) return 'revoked';
  return null;
}

/** Whether the secondary is connected to its primary right now (a fault since the last event shows at once). */
export function isConnected(state: SimState, kind: ReplicationKind, secondary: ClusterState): boolean {
  return secondary.replication[kind].connected && linkDown(state, kind, secondary) === null;
}

/** The clusters that follow this primary in its replication set, by name order, revoked ones left out. */
export function followersOf(state: SimState, kind: ReplicationKind, primary: ClusterState): ClusterState[] {
  const p = primary.replication[kind];
  return Object.keys(state.clusters)
    .sort()
    .map((n) => state.clusters[n])
    .filter((c) => {
      const r = c.replication[kind];
      if (c.name === primary.name || r.role !== 'secondary.following' || r.primary !== primary.name || r.clusterId !== p.clusterId) return false;
      const issued = p.issued[r.secondaryId];
      return !(issued && (issued.revoked || issued.jti !== r.jti));
    });
}
