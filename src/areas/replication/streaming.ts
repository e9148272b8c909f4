// The connection process: a secondary notices at once that its link dropped (a partition, a crash,
// a revocation, its primary demoted or re-enabled as another set) and records it
// (`replication-secondary-disconnected`, the connection machine's `observe`). Everything else a link
// does is a message on the bus (shipping.ts): the connection attempt, the merkle sync and the WALs,
// each due one link latency after it was sent. This process still looks at every following
// secondary at each step of World.advance (the due-time queue would take it, with the faults
// scheduling a look at the links they touch: not done yet).
import type { SimEvent } from '../cluster/events.js';
import type { ReplicationKind, SimState } from '../cluster/state.js';
import type { TimedProcess } from '../cluster/timed.js';
import { observeConnection } from '../../../models/secondary-connection.machine.js';
import { linkFacts, storedConnection } from './link.js';

const KINDS: ReplicationKind[] = ['dr', 'performance'];

export const streamingProcess: TimedProcess = (state: SimState) => {
  for (const name of Object.keys(state.clusters).sort()) {
    const secondary = state.clusters[name];
    for (const kind of KINDS) {
      const r = secondary.replication[kind];
      if (r.role !== 'secondary.following' || r.primary === null || !r.connected) continue;
      // The connection machine decides, on the link's facts now.
      const now = observeConnection(storedConnection(r), linkFacts(state, kind, secondary));
      // The fault happened at or before now, and nothing moved the clock since: the link dropped now.
      if (now.state === 'transient_failure')
        return { at: state.now, events: [{ type: 'replication-secondary-disconnected', at: state.now, kind, cluster: name, primary: r.primary, reason: now.reason! }] };
    }
  }
  return null;
};
