// A world keeps only the messages in flight until its history is read (src/world.ts `messages`):
// then the history is rebuilt from the log and kept. Whenever it is first read, and for a replay or a
// fork, it must be the history a world that kept every message from the start would hold.
import { describe, expect, it } from 'vitest';
import type { World } from '../../src/world.js';
import { World as W } from '../../src/world.js';
import { drWorld, enablePrimary, enableSecondary, writeKv } from '../areas/replication/helpers.js';

/** The same run on a fresh world each time; `look` is called between its steps. */
function run(look: (w: World, step: number) => void = () => {}): World {
  const w = drWorld({ latencyMs: 40 });
  const steps: (() => void)[] = [
    () => enablePrimary(w, 'east'),
    () => enableSecondary(w, 'east', 'west'),
    () => enableSecondary(w, 'east', 'south'),
    () => w.advance(1000),
    () => w.partition(['east', 'south']),
    () => writeKv(w, 'east', 'k1', { v: 1 }),
    () => w.advance(10),
    () => writeKv(w, 'east', 'k2', { v: 2 }),
    () => w.crash('west'),
    () => w.advance(500),
    () => w.heal('all'),
    () => w.restart('west'),
    () => w.advance(2000),
  ];
  steps.forEach((s, i) => {
    s();
    look(w, i);
  });
  return w;
}

const text = (w: World) => JSON.stringify(w.messages);

describe('the history of messages', () => {
  it('is the same whenever it is first read: at the end, or early and then kept as the world goes on', () => {
    const atEnd = text(run());
    expect(JSON.parse(atEnd).length).toBeGreaterThan(10);
    for (const first of [0, 3, 6, 9]) expect(text(run((w, i) => void (i === first && w.messages)))).toBe(atEnd);
  });

  it('read again from states the world held (a run lends its checkpoints): the same history', () => {
    const plain = text(run());
    const held = new Map<number, World['state']>();
    const w = run((w) => void held.set(w.log.length, w.state));
    let used = 0;
    w.lendStates((events) => {
      const s = held.get(events);
      if (s) used++;
      return s;
    });
    expect(text(w)).toBe(plain);
    expect(used).toBe([...held.keys()].filter((n) => n < w.log.length).length);
  });

  it('read early, its messages still in flight are the bus’s own: they show their delivery when it happens', () => {
    let onTheWay: World['messages'] = [];
    const w = run((w, i) => void (i === 7 && (onTheWay = w.messages.filter((m) => m.deliveredAt === null && m.droppedAt === null))));
    expect(onTheWay.length).toBeGreaterThan(0);
    for (const m of onTheWay) expect(m.deliveredAt !== null || m.droppedAt !== null).toBe(true);
    expect(w.inFlight).toEqual([]);
  });

  it('a replayed world holds the same history; a fork holds its parent’s messages in flight, then its own', () => {
    const w = run();
    expect(text(W.replay(w.history()))).toBe(text(w));

    const parent = drWorld({ latencyMs: 40 });
    enablePrimary(parent, 'east');
    enableSecondary(parent, 'east', 'west');
    parent.advance(1000);
    writeKv(parent, 'east', 'k', { v: 1 });
    const inFlight = parent.inFlight.map((m) => m.id);
    expect(inFlight.length).toBeGreaterThan(0);
    const child = parent.fork();
    child.advance(1000);
    expect(child.messages.slice(0, inFlight.length).map((m) => m.id)).toEqual(inFlight);
    expect(child.messages.slice(0, inFlight.length).every((m) => m.deliveredAt !== null)).toBe(true);
    // The parent's own history is untouched by what the fork delivered.
    expect(parent.messages.filter((m) => inFlight.includes(m.id)).every((m) => m.deliveredAt === null)).toBe(true);
  });
});
