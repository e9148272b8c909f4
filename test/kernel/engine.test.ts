import { describe, expect, it } from 'vitest';
import { canonicalJson, hashOf } from '../../src/kernel/canonical.js';
import { EventStore, foldEvents, UnknownEventError, type BaseEvent } from '../../src/kernel/engine.js';
import { parseHistory, toJsonl } from '../../src/kernel/persist.js';

interface S {
  now: number;
  total: number;
  items: string[];
}
type E = (BaseEvent & { type: 'added'; n: number }) | (BaseEvent & { type: 'named'; name: string });
const reducers = {
  added: (d: S, e: Extract<E, { type: 'added' }>) => {
    d.total += e.n;
  },
  named: (d: S, e: Extract<E, { type: 'named' }>) => {
    d.items.push(e.name);
  },
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

  it('replays a log into the same state', () => {
    const store = new EventStore<S, E>(initial(), reducers);
    store.append({ type: 'added', at: 1, n: 4 }, { type: 'named', at: 2, name: 'b' });
    const end = { events: 2, rng: [1, 2, 3, 4], stateHash: hashOf(store.state) };
    const replayed = foldEvents(initial(), parseHistory<E>(toJsonl(store.log, end)).events, reducers);
    expect(hashOf(replayed)).toBe(hashOf(store.state));
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
