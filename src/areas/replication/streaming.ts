// The connection process: what a secondary's link does by itself as time passes. For every secondary
// that follows a primary it finds the next step due on its link, in the order a real link goes
// through them: connect one link latency after it can, finish the initial sync one latency later;
// and drop the link as soon as a partition, a crash, a revocation or a role change breaks it.
// World.advance appends the earliest due event. WALs are not shipped here: each is a message on the
// bus, due one latency after it was written, delivered through the connection machine's gate
// (shipping.ts).
import type { SimEvent } from '../cluster/events.js';
import type { ReplicationKind, SimState } from '../cluster/state.js';
import type { TimedProcess } from '../cluster/timed.js';
import { observeConnection, stepConnection } from '../../../models/secondary-connection.machine.js';
import { linkFacts, storedConnection } from './link.js';

const KINDS: ReplicationKind[] = ['dr', 'performance'];

export const streamingProcess: TimedProcess = (state: SimState) => {
  const latency = state.network.latencyMs;
  let next: { at: number; events: SimEvent[] } | null = null;
  const consider = (at: number, event: SimEvent) => {
    if (!next || at < next.at) next = { at, events: [event] };
  };
  for (const name of Object.keys(state.clusters).sort()) {
    const secondary = state.clusters[name];
    for (const kind of KINDS) {
      const r = secondary.replication[kind];
      if (r.role !== 'secondary.following' || r.primary === null) continue;
      const primaryName = r.primary;
      // The connection machine decides each step, on the link's facts now.
      const link = linkFacts(state, kind, secondary);
      const stored = storedConnection(r);
      const now = observeConnection(stored, link);
      if (now.state === 'transient_failure') {
        // The fault happened at or before now, and nothing moved the clock since: the link dropped now.
        if (stored.state === 'ready') consider(state.now, { type: 'replication-secondary-disconnected', at: state.now, kind, cluster: name, primary: primaryName, reason: now.reason! });
        continue;
      }
      if (now.state === 'connecting') {
        if (stepConnection(now, { type: 'connect', link }) !== null) {
          consider(r.lastHeartbeat + latency, { type: 'replication-secondary-connected', at: r.lastHeartbeat + latency, kind, cluster: name, primary: primaryName });
        }
        continue;
      }
      if (stepConnection(now, { type: 'sync-done' }) !== null) {
        const at = r.lastHeartbeat + latency;
        consider(at, { type: 'replication-secondary-synced', at, kind, cluster: name, primary: primaryName, wal: state.clusters[primaryName].wal.last });
      }
    }
  }
  return next;
};
