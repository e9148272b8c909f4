// A history far longer than a scenario's still replays: `replsim replay` of a long CI run, and the
// replay benchmark's million-event history (World.replay once spread the whole log into one
// push(...) call, which overflows the call stack beyond some 100,000 events).
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/areas/core/events.js';
import { World } from '../../src/world.js';

describe('long histories', () => {
  it('a history of 300,000 events replays to the same state hash and keeps its whole log', () => {
    const w = World.create({ east: {} }, { seed: 1 });
    const events: SimEvent[] = [...w.log];
    for (let i = 1; i <= 300_000; i++) events.push({ type: 'time-advanced', at: i, seq: i + 1 });
    const replayed = World.replay(events);
    expect(replayed.log.length).toBe(300_001);
    expect(replayed.now).toBe(300_000);
    const live = World.create({ east: {} }, { seed: 1 });
    live.advance(300_000);
    expect(replayed.stateHash()).toBe(live.stateHash());
  });
});
