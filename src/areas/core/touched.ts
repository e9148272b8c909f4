// What the simulator's reducers report they touched beside the state they return (engine.ts
// `Answer`): what a reader of one event needs and the state after it does not say by itself. The core
// reports the WALs a cluster wrote (the bus sends them to its followers: replication/messages.ts);
// replication reports what it did to its links (replication/touched.ts).
import type { Touch } from '../../kernel/engine.js';
import { advancedWal, type ClusterState } from './state.js';

/** WALs `from`..`to` written by `cluster` (a replicated write, or the WALs a DR secondary took from its primary). */
export interface WalWritten {
  what: 'wal';
  cluster: string;
  from: number;
  to: number;
}

declare module '../../kernel/engine.js' {
  interface Touches {
    wal: WalWritten;
  }
}

/** The WALs a cluster writes after those it has (`c`, as before the event), up to `to` (one more by default). */
export function walWritten(c: ClusterState, to = c.wal.last + 1): WalWritten {
  return { what: 'wal', cluster: c.name, from: c.wal.last + 1, to };
}

/** A cluster (a draft of it) writes one WAL at `at`, reported in `touched`: one place, so no write goes unreported. */
export function writeWal(c: ClusterState, at: number, touched: Touch[]): void {
  touched.push(walWritten(c));
  c.wal = advancedWal(c.wal, at);
}

/** Both reports, the first's touches first (either list itself when the other is empty or absent). */
export function touchedBoth(a: readonly Touch[] | undefined, b: readonly Touch[] | undefined): readonly Touch[] | undefined {
  if (!b?.length) return a;
  if (!a?.length) return b;
  return [...a, ...b];
}
