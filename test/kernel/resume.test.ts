// Issue 14, finding 5: a replayed world continues like the original. `run → replay → more steps`
// equals one longer run: the same responses (request ids and drawn tokens included), the same log
// bytes, the same state hash. Before, the replayed world's generator restarted at the seed and the
// next request drew other ids.
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/areas/core/events.js';
import { World } from '../../src/world.js';
import { parseHistory, toJsonl } from '../../src/kernel/persist.js';

const PERF = 'sys/replication/performance';

function firstHalf(w: World): void {
  const token = w.tokenNamed('east', 'root');
  w.request('east', { method: 'POST', path: 'secret/data/a', body: { data: { n: 1 } }, token });
  w.request('east', { method: 'GET', path: 'secret/data/a', token }); // draws a request_id, appends nothing
  w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, body: {}, token });
  w.advance(50);
}

/** Requests whose answers carry drawn values: request ids, an activation token, a wrapping token. */
function secondHalf(w: World): unknown[] {
  const token = w.tokenNamed('east', 'root');
  const out: unknown[] = [];
  out.push(w.request('east', { method: 'POST', path: 'secret/data/b', body: { data: { n: 2 } }, token }));
  out.push(w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'west' }, token }));
  out.push(w.request('west', { method: 'POST', path: `${PERF}/secondary/enable`, body: { token: ((out[1] as any).body as any).wrap_info.token }, token: w.tokenNamed('west', 'root') }));
  w.advance(200);
  out.push(w.request('east', { method: 'GET', path: `${PERF}/status`, token }));
  return out;
}

const create = () => World.create({ east: { mounts: { secret: 'kv-v2' } }, west: {} }, { seed: 11 });

describe('a replayed world resumes the generator', () => {
  const long = create();
  firstHalf(long);
  const longAnswers = secondHalf(long);

  it('run, save, read, replay, more steps: the same answers, log and hash as one longer run', () => {
    const first = create();
    firstHalf(first);
    const h = first.history();
    const resumed = World.replay(parseHistory<SimEvent>(toJsonl(h.events, h.end!)));
    expect(resumed.generatorState()).toEqual(first.generatorState());
    expect(secondHalf(resumed)).toEqual(longAnswers);
    expect(toJsonl(resumed.log)).toBe(toJsonl(long.log));
    expect(resumed.stateHash()).toBe(long.stateHash());
  });

  it('in memory too: World.replay(world.history())', () => {
    const first = create();
    firstHalf(first);
    const resumed = World.replay(first.history());
    expect(secondHalf(resumed)).toEqual(longAnswers);
    expect(resumed.stateHash()).toBe(long.stateHash());
  });

  it("and from the live world's log array: World.replay(world.log), as the finding's check did", () => {
    const first = create();
    firstHalf(first);
    const resumed = World.replay(first.log);
    expect(secondHalf(resumed)).toEqual(longAnswers);
    expect(resumed.stateHash()).toBe(long.stateHash());
  });

  it('a copy of the events alone rebuilds the state but cannot know how far the generator had drawn (documented)', () => {
    const first = create();
    firstHalf(first);
    const copy = World.replay(JSON.parse(JSON.stringify(first.log)));
    expect(copy.stateHash()).toBe(first.stateHash());
    expect(copy.generatorState()).not.toEqual(first.generatorState());
  });

  it('a fork numbers its events on from its parent, so parent log + fork log is one history', () => {
    const parent = create();
    firstHalf(parent);
    const fork = parent.fork();
    secondHalf(fork);
    const events = [...parent.log, ...fork.log];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(World.replay({ events, end: { events: events.length, rng: fork.generatorState(), stateHash: fork.stateHash() } }).stateHash()).toBe(long.stateHash());
  });
});
