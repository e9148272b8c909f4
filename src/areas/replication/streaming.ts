// Noticing that a link dropped: a secondary notices at once that its link to its primary went down
// (a partition, a crash, a revocation, its primary demoted or re-enabled as another set) and records
// it (`replication-secondary-disconnected`, the connection machine's `observe`). Nothing polls for
// it: every event that may break a link (a fault, a change to a primary's or a secondary's
// replication) schedules a check of the links it touches on the bus's due-time queue (messages.ts,
// `check`), and `checkLink` looks at that one link when the check falls due. Everything else a link
// does is a message on the bus (shipping.ts): the connection attempt, the merkle sync and the WALs.
import type { Checker } from '../../kernel/bus.js';
import type { SimEvent } from '../cluster/events.js';
import type { ReplicationKind, SimState } from '../cluster/state.js';
import { observeConnection } from '../../../models/secondary-connection.machine.js';
import { linkFacts, storedConnection } from './link.js';

/** The check of one secondary's link ("link:dr:west"): the link dropped now, or nothing. */
export const checkLink: Checker<SimState, SimEvent> = (state, key, at) => {
  const [, kind, name] = key.split(':') as [string, ReplicationKind, string];
  const secondary = state.clusters.get(name);
  const r = secondary?.replication[kind];
  if (!r || r.role !== 'secondary.following' || r.primary === null || !r.connected) return [];
  // The connection machine decides, on the link's facts now.
  const now = observeConnection(storedConnection(r), linkFacts(state, kind, secondary));
  if (now.state !== 'transient_failure') return [];
  return [{ type: 'replication-secondary-disconnected', at, kind, cluster: name, primary: r.primary, reason: now.reason! }];
};
