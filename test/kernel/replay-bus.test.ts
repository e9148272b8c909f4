// A replayed world builds its bus (the messages in flight, the timed work scheduled) from its log when
// first needed, not while the history is checked (src/world.ts `bus`): whatever asks first — a
// request, time passing, a fork, `inFlight`, the message history — it must hold what the original
// held, and go on as the original goes on. An event the bus cannot read is a flaw of the history, at
// its line, when the bus is built.
import { describe, expect, it } from 'vitest';
import { World } from '../../src/world.js';
import { HistoryFileError, parseHistory, toJsonl } from '../../src/kernel/persist.js';
import type { SimEvent } from '../../src/areas/core/events.js';
import { drWorld, enablePrimary, enableSecondary, writeKv } from '../areas/replication/helpers.js';

/** A DR set with WALs on their way and others held by a partition, a link check and a connection attempt pending. */
function original(): World {
  const w = drWorld({ latencyMs: 40 });
  enablePrimary(w, 'east');
  enableSecondary(w, 'east', 'west');
  enableSecondary(w, 'east', 'south');
  w.advance(1000);
  w.partition(['east', 'south']);
  writeKv(w, 'east', 'k1', { v: 1 });
  w.advance(10);
  writeKv(w, 'east', 'k2', { v: 2 });
  return w;
}

/** What the rest of the run does, from either world. */
function goOn(w: World): void {
  w.advance(15);
  w.heal('all');
  writeKv(w, 'east', 'k3', { v: 3 });
  w.advance(2000);
}

const saved = (w: World) => parseHistory<SimEvent>(toJsonl(w.log, w.history().end!));
const inFlight = (w: World) => JSON.stringify(w.inFlight);

describe('a replayed world builds its bus when first needed', () => {
  const w = original();
  const before = inFlight(w);

  it('the original has messages in flight, some held by the partition', () => {
    expect(w.inFlight.length).toBeGreaterThan(2);
    expect(w.inFlight.some((m) => m.to === 'south')).toBe(true);
  });

  const askedFirst: Record<string, (r: World) => void> = {
    inFlight: (r) => expect(inFlight(r)).toBe(before),
    'time passing': (r) => r.advance(0),
    'a fork': (r) => r.fork(),
    'the message history': (r) => r.messages,
    'a request': (r) => writeKv(r, 'east', 'k0', { v: 0 }),
    'a crash': (r) => r.crash('west'),
    'a heal': (r) => r.heal('all'),
    'a partition': (r) => r.partition(['east', 'west']),
  };
  for (const [name, ask] of Object.entries(askedFirst))
    it(`asked first by ${name}: it goes on as the original does`, () => {
      const a = original();
      const r = World.replay(saved(a));
      ask(r);
      ask(a);
      goOn(a);
      goOn(r);
      expect(toJsonl(r.log)).toBe(toJsonl(a.log));
      expect(inFlight(r)).toBe(inFlight(a));
      expect(JSON.stringify(r.messages)).toBe(JSON.stringify(a.messages));
      expect(r.stateHash()).toBe(a.stateHash());
    });

  it('an event the bus cannot read is the history’s flaw at its line, when the bus is built', () => {
    const a = original();
    // A secondary's sync ending, naming a forwarding secondary: no reducer reads the field, the bus refuses it.
    const at = a.log.findIndex((e) => e.type === 'replication-secondary-synced');
    expect(at).toBeGreaterThan(0);
    const crafted = a.log.map((e, i) => (i === at ? ({ ...e, forwardedBy: 'west' } as SimEvent) : e));
    const r = World.replay(crafted);
    expect(r.stateHash()).toBe(a.stateHash());
    let thrown: unknown;
    try {
      r.advance(1);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HistoryFileError);
    expect((thrown as HistoryFileError).line).toBe(at + 1);
    expect((thrown as Error).message).toMatch(/the "replication-secondary-synced" event cannot be applied: replication log is inconsistent: replication-secondary-synced names forwardedBy/);
  });
});
