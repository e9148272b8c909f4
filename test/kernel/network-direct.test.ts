// The network's reducers build the next state without an immer draft (their direct forms, for speed:
// faults are a quarter of property runs' events). Over random sequences of cuts, heals, crashes and
// restarts, slowed links, each direct form must build what its draft form builds: the same values with keys in
// the same order, every object frozen, and the very same network object when nothing changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEvent, type ReducerTable } from '../../src/kernel/engine.js';
import { initialNetwork, networkReducers, type NetworkEvent, type NetworkState } from '../../src/kernel/network.js';

type S = { now: number; network: NetworkState };
type Table = ReducerTable<S, NetworkEvent>;

const direct = networkReducers as unknown as Table;
/** The same reducers without their direct forms: every event drafted. */
const drafted = Object.fromEntries(Object.entries(networkReducers).map(([t, r]) => [t, (d: S, e: never) => r(d as never, e)])) as unknown as Table;

const node = fc.constantFrom('a', 'b', 'c', 'd');
const pair = fc.tuple(node, node).filter(([x, y]) => x !== y).map(([x, y]) => (x < y ? [x, y] : [y, x]) as [string, string]);
const event: fc.Arbitrary<Omit<NetworkEvent, 'at'>> = fc.oneof(
  fc.array(pair, { maxLength: 3 }).map((links) => ({ type: 'links-cut' as const, links })),
  fc.array(pair, { maxLength: 3 }).map((links) => ({ type: 'links-healed' as const, links })),
  fc.tuple(fc.array(pair, { minLength: 1, maxLength: 2 }), fc.constantFrom(500, 2000)).map(([links, latencyMs]) => ({ type: 'links-slowed' as const, links, latencyMs })),
  fc.constant({ type: 'links-healed' as const, links: 'all' as const }),
  node.map((cluster) => ({ type: 'cluster-crashed' as const, cluster })),
  node.map((cluster) => ({ type: 'cluster-restarted' as const, cluster })),
  fc.constant({ type: 'message-dropped' as const, id: 'm', reason: 'r' }),
);

describe('direct network reducers', () => {
  it('build what the draft forms build, event by event', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let s: S = Object.freeze({ now: 0, network: Object.freeze({ ...initialNetwork(20), cut: Object.freeze({}), down: Object.freeze({}) }) });
        events.forEach((e, i) => {
          const ev = { ...e, at: i % 3 === 0 ? s.now : s.now + 1 } as NetworkEvent;
          const viaDirect = applyEvent(s, ev, direct);
          const viaDraft = applyEvent(s, ev, drafted);
          expect(JSON.stringify(viaDirect)).toBe(JSON.stringify(viaDraft));
          expect(viaDirect.network === s.network).toBe(viaDraft.network === s.network);
          expect(viaDirect === s).toBe(viaDraft === s);
          for (const o of [viaDirect, viaDirect.network, viaDirect.network.cut, viaDirect.network.down, ...(viaDirect.network.slow ? [viaDirect.network.slow] : [])]) expect(Object.isFrozen(o)).toBe(true);
          // No slowed link: no `slow` key at all (a world that never slows one keeps its state hash).
          if (viaDirect.network.slow !== undefined) expect(Object.keys(viaDirect.network.slow).length).toBeGreaterThan(0);
          s = viaDirect;
        });
      }),
      { numRuns: 300 },
    );
  });
});
