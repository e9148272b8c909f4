// Secret sync's destinations and associations (with their statuses) and the plugin catalog are
// replicated configuration: the service keeps them in replicated storage, so a change to them is a
// write like any other. Each such event advances the WAL of the cluster it lands on, so its DR
// secondaries receive it one link latency later (and its performance secondaries, which read the
// primary's configuration), instead of only at their initial sync or with a later KV write. The
// `destination-fault` fault is not one of them: it happens to the external store, outside every
// cluster.
import type { BaseEvent } from '../../kernel/engine.js';
import { advancedWal } from '../core/state.js';

interface WithWals {
  clusters: Record<string, { wal: { last: number; lastAt: number } }>;
}

// `never` for the event: any reducer of a narrower event type fits.
type ClusterReducer = (d: never, e: never) => void;

/** The reducers, each also advancing the WAL of the cluster its event landed on. */
export function advancingWal<T extends Record<string, ClusterReducer>>(reducers: T): T {
  const out: Record<string, ClusterReducer> = {};
  for (const [type, apply] of Object.entries(reducers)) {
    out[type] = ((d: WithWals, e: BaseEvent & { cluster: string }) => {
      (apply as (d: WithWals, e: BaseEvent & { cluster: string }) => void)(d, e);
      const c = d.clusters[e.cluster];
      c.wal = advancedWal(c.wal, e.at);
    }) as ClusterReducer;
  }
  return out as T;
}
