// What replication's reducers report they did to a link (engine.ts `Answer`, core/touched.ts), read by
// the bus (messages.ts) for the clusters an event changed: no event records these, and several
// events bring each (a WAL delivered brings a DR secondary its primary's issued and revoked
// credentials and its mirrored performance role), so the reducer that does it says so.
//
// - `stream-reset`: a following secondary no longer streams from `primary` as it did (promoted,
//   disabled, re-pointed, given other credentials, its role held dormant): what was on its way over
//   the link is lost with it.
// - `connection-closed`: the secondary closed the connection it had to the same primary, to connect
//   again (update-primary, recover): a sync under way on it is lost with it.
// - `credentials-revoked`: the cluster's list of revoked credentials changed (a revocation, one taken
//   from its primary, or the record holding the list replaced): revocation bars them in the whole
//   set (link.ts `credentialsRevoked`), so every link is looked at.
// - `link-changed`: something else a link depends on changed on this cluster's side of it (its role,
//   primary, set, the credentials it issued, its connection, the performance role it mirrors).
// Each of the first three is a change of the link too: it is reported once, as the most telling.
import type { ReplicationKind } from '../core/vocabulary.js';
import type { ReplicationState } from './state.js';
import type { PrimaryAssignment } from './events.js';
import type { RoleValue } from '../../../models/replication-role.machine.js';

export interface LinkTouched {
  what: 'stream-reset' | 'connection-closed' | 'credentials-revoked' | 'link-changed';
  kind: ReplicationKind;
  cluster: string;
  /** The primary the secondary streamed from (a stream reset, a connection closed), else null. */
  primary: string | null;
}

declare module '../../kernel/engine.js' {
  interface Touches {
    link: LinkTouched;
  }
}

export function linkTouched(what: LinkTouched['what'], kind: ReplicationKind, cluster: string, primary: string | null = null): LinkTouched {
  return { what, kind, cluster, primary };
}

/** Whether the record follows a primary (streams from it, or will once connected). */
function follows(r: ReplicationState): r is ReplicationState & { primary: string } {
  return r.role === 'secondary.following' && r.primary !== null;
}

/** The cluster's record of a kind leaves the stream it had (`was`, the record before the event): a reset when it was following one, else a change. */
export function leftStream(was: ReplicationState, kind: ReplicationKind, cluster: string): LinkTouched {
  return follows(was) ? linkTouched('stream-reset', kind, cluster, was.primary) : linkTouched('link-changed', kind, cluster);
}

/**
 * A secondary told whom to follow (`to`: the assignment and the role it moves to), from its record
 * before (`was`): the stream it had is reset unless it goes on following the same primary of the
 * same set with the same credentials; else its link changed.
 */
export function repointed(was: ReplicationState, to: PrimaryAssignment & { role: RoleValue }, kind: ReplicationKind, cluster: string): LinkTouched {
  const same = to.role === 'secondary.following' && to.primary === was.primary && to.clusterId === was.clusterId && to.jti === was.jti && to.secondaryId === was.secondaryId;
  return same ? linkTouched('link-changed', kind, cluster) : leftStream(was, kind, cluster);
}
