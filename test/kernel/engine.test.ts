import { describe, expect, it } from 'vitest';
import { canonicalJson, hashOf } from '../../src/kernel/canonical.js';
import { applyEvent, EventStore, UnknownEventError, type BaseEvent, type Reducer } from '../../src/kernel/engine.js';
import { parseHistory, toJsonl } from '../../src/kernel/persist.js';

interface S {
  now: number;
  total: number;
  items: string[];
}
type E = (BaseEvent & { type: 'added'; n: number }) | (BaseEvent & { type: 'named'; name: string });
const reducers = {
  added: (s: S, e: Extract<E, { type: 'added' }>) => ({ total: s.total + e.n }),
  named: (s: S, e: Extract<E, { type: 'named' }>) => ({ items: [...s.items, e.name] }),
};
const initial = (): S => ({ now: 0, total: 0, items: [] });

describe('event store', () => {
  it('numbers events in order and folds them into the state', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    store.append({ type: 'added', at: 5, n: 2 }, { type: 'named', at: 7, name: 'x' });
    expect(store.log.map((e) => e.seq)).toEqual([1, 2]);
    expect(store.state).toEqual({ now: 7, total: 2, items: ['x'] });
  });

  it('publishes each event on the stream after the state has absorbed it', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    const seen: [string, number][] = [];
    store.events$.subscribe((e) => seen.push([e.type, store.state.total]));
    store.append({ type: 'added', at: 0, n: 3 });
    expect(seen).toEqual([['added', 3]]);
  });

  it('never changes an earlier state: states are immutable snapshots', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    const before = store.state;
    store.append({ type: 'named', at: 0, name: 'a' });
    expect(before.items).toEqual([]);
    expect(store.state.items).toEqual(['a']);
  });

  it('refuses an event type that has no reducer', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    expect(() => store.append({ type: 'unknown', at: 0 } as unknown as E)).toThrow(UnknownEventError);
  });

  it('hands on what a reducer reports it touched, which is no field of the state', () => {
    const touching = { ...reducers, added: (s: S, e: Extract<E, { type: 'added' }>) => ({ total: s.total + e.n, touched: [{ n: e.n }] as never[] }) };
    const store = new EventStore<S, E>(initial(), touching);
    store.append({ type: 'added', at: 1, n: 4 });
    expect(store.touched).toEqual([{ n: 4 }]);
    expect(store.state).toEqual({ now: 1, total: 4, items: [] });
    store.append({ type: 'named', at: 2, name: 'c' });
    expect(store.touched).toEqual([]);
  });

  it('replays a log into the same state', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    store.append({ type: 'added', at: 1, n: 4 }, { type: 'named', at: 2, name: 'b' });
    const end = { events: 2, rng: [1, 2, 3, 4], stateHash: hashOf(store.state) };
    const replayed = new EventStore<S, E>(initial(), reducers);
    replayed.append(...parseHistory<E>(toJsonl(store.log, end)).events);
    expect(hashOf(replayed.state)).toBe(hashOf(store.state));
  });
});

describe('canonical JSON and JSONL', () => {
  it('sorts keys so equal states print equal bytes', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}');
    expect(hashOf({ a: 1, b: 2 })).toBe(hashOf({ b: 2, a: 1 }));
  });

  it('names the line of a history that is not an event', () => {
    const first = toJsonl([{ type: 'a', at: 0, seq: 1 }]);
    expect(() => parseHistory(first + '{oops\n', 'h.jsonl')).toThrow(/h\.jsonl:2: not valid JSON/);
    expect(() => parseHistory('[1]\n', 'h.jsonl')).toThrow(/h\.jsonl:1: not a JSON object/);
  });

  it('an event type named after an Object.prototype member is unknown, like any other (issue 14)', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect(() => store.append({ type, at: 0 } as unknown as E)).toThrow(UnknownEventError);
  });
});

describe('the engine applying a reducer', () => {
  interface S {
    now: number;
    n: number;
    log: string[];
  }
  type E = BaseEvent & { type: 'bump'; by: number };
  // Nothing changes for a step of 0.
  const bump: Reducer<S, E> = (s, e) => (e.by === 0 ? null : { n: s.n + e.by });
  const table = { bump };
  const ev = (at: number, by: number): E => ({ type: 'bump', at, by });
  const s0: S = Object.freeze({ now: 5, n: 0, log: Object.freeze([]) as unknown as string[] });

  it('gives back the very state when nothing changes and the clock stays', () => {
    expect(applyEvent(s0, ev(3, 0), table)).toBe(s0);
  });

  it('moves the clock and freezes a new root, sharing the rest', () => {
    const s1 = applyEvent(s0, ev(9, 2), table);
    expect(s1).toEqual({ now: 9, n: 2, log: [] });
    expect(Object.isFrozen(s1)).toBe(true);
    expect(s1.log).toBe(s0.log);
    expect(applyEvent(s0, ev(9, 0), table)).toEqual({ now: 9, n: 0, log: [] });
  });
});
