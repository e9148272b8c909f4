// Shared by the tests of the direct (draft-free) forms of `replication-wal-delivered` (issue #15):
// folds a world's log again and, for each delivery of one kind, compares what the direct form built
// with what the draft form builds from the same state.
import { expect } from 'vitest';
import type { SimEvent } from '../../../src/areas/core/events.js';
import type { ReplicationKind, SimState } from '../../../src/areas/core/state.js';
import type { WalDelivered } from '../../../src/areas/replication/events.js';
import { applyEvent, type ReducerTable } from '../../../src/kernel/engine.js';
import { reducers, World } from '../../../src/world.js';
import { replicationReducers } from '../../../src/areas/replication/evolve.js';
import { withWalSnapshots } from '../../../src/areas/replication/shipping.js';
import { throughDraft } from '../../../src/areas/core/draft.js';
import { objects } from '../../kernel/reachable.js';

/**
 * For every delivery of `kind` in `w`'s log: the direct form's state equals the draft form's (key
 * order included: order-sensitive JSON), every object in it is frozen, and `check` sees the state
 * before and after. Returns how many deliveries were compared; the whole fold must give `w`'s state.
 */
export function compareDeliveries(w: World, kind: ReplicationKind, check: (before: SimState, next: SimState, e: WalDelivered) => void = () => {}): number {
  const log = w.log as SimEvent[];
  const delivered = replicationReducers['replication-wal-delivered'];
  expect(typeof delivered.direct).toBe('function');
  // The same reducer without its direct form, drafting every delivery, with the world's upkeep.
  const draftOnly = { ...reducers, ...withWalSnapshots({ 'replication-wal-delivered': throughDraft<WalDelivered>((d, e) => delivered(d, e)) } as ReducerTable<SimState, SimEvent>) };
  let state = World.replay(log.slice(0, 1)).state;
  let compared = 0;
  for (const e of log.slice(1)) {
    const next = applyEvent(state, e, reducers);
    if (e.type === 'replication-wal-delivered' && e.kind === kind) {
      compared++;
      expect(JSON.stringify(next)).toBe(JSON.stringify(applyEvent(state, e, draftOnly)));
      for (const [path, o] of objects(next)) expect(Object.isFrozen(o), path).toBe(true);
      check(state, next, e);
    }
    state = next;
  }
  expect(JSON.stringify(state)).toBe(JSON.stringify(w.state));
  return compared;
}
