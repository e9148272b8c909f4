// Heartbeats in a running world: they are messages on the bus (`heartbeat`: the secondary's echo and
// the primary's answer), and what each side of a link reports (`connection_status`, `last_heartbeat`,
// `last_heartbeat_duration_ms`) is what those messages did — checked here against the messages the
// world's bus holds and against figures computed from the log (a 5 s interval, each message one
// latency on its way, the link's latency when it left), never with the simulator's schedule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import type { BusMessage } from '../../../src/kernel/bus.js';
import { rfc3339 } from '../../../src/kernel/clock.js';
import { drPair, drStatus, drWorld } from './helpers.js';
import { perfPair, perfStatus, perfWorld } from './performance/helpers.js';

const INTERVAL = 5000;
const MISSED = 2;

type Kind = 'dr' | 'performance';
type Entry = { connection_status: string; last_heartbeat?: string; last_heartbeat_duration_ms?: string };

/** When `secondary`'s latest connection of `kind` came up, from the log. */
function connectedAt(w: World, secondary: string, kind: Kind = 'dr'): number {
  const up = w.log.filter((e) => e.type === 'replication-secondary-connected' && e.cluster === secondary && e.kind === kind);
  return up[up.length - 1].at;
}

function primaryEntry(w: World, kind: Kind = 'dr', primary = 'east'): Entry {
  return (kind === 'dr' ? drStatus(w, primary) : perfStatus(w, primary)).secondaries[0];
}

function secondaryEntry(w: World, kind: Kind = 'dr', secondary = 'west'): Entry {
  return (kind === 'dr' ? drStatus(w, secondary) : perfStatus(w, secondary)).primaries[0];
}

/** Moves the clock to `at`. */
function advanceTo(w: World, at: number): void {
  expect(at).toBeGreaterThanOrEqual(w.now);
  w.advance(at - w.now);
}

/** The heartbeat messages (echoes and answers) the bus carried from `from` to `to`. */
function heartbeats(w: World, from: string, to: string): BusMessage[] {
  return w.messages.filter((m) => m.kind === 'heartbeat' && m.from === from && m.to === to);
}

/** The last heartbeat from `from` that reached `to` strictly before now (a message due at an instant arrives after everything else then), or undefined. */
function lastArrived(w: World, from: string, to: string): BusMessage | undefined {
  return heartbeats(w, from, to)
    .filter((m) => m.deliveredAt !== null && m.deliveredAt < w.now)
    .at(-1);
}

describe.each(['dr', 'performance'] as const)('heartbeats over a %s link', (kind) => {
  const pair = (): World => {
    if (kind === 'dr') {
      const w = drWorld();
      drPair(w);
      return w;
    }
    const w = perfWorld();
    perfPair(w);
    return w;
  };

  it('are messages every 5 s, one latency each way, and each side reports the last that reached it', () => {
    const w = pair();
    const latency = w.state.network.latencyMs;
    w.advance(12_345);
    const t0 = connectedAt(w, 'west', kind);
    const echoes = heartbeats(w, 'west', 'east');
    expect(echoes.map((m) => [m.sentAt, m.deliveredAt])).toEqual([
      [t0 + INTERVAL, t0 + INTERVAL + latency],
      [t0 + 2 * INTERVAL, t0 + 2 * INTERVAL + latency],
    ]);
    expect(heartbeats(w, 'east', 'west').map((m) => [m.sentAt, m.deliveredAt])).toEqual(echoes.map((m) => [m.deliveredAt, m.deliveredAt! + latency]));
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t0 + 2 * INTERVAL + latency), last_heartbeat_duration_ms: String(2 * latency) });
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t0 + 2 * INTERVAL + 2 * latency) });
  });

  it('a cut link drops them: the primary marks the secondary disconnected after two missed intervals, and a heal brings a new connection and new heartbeats', () => {
    const w = pair();
    const latency = w.state.network.latencyMs;
    w.advance(12_345);
    w.partition(['east', 'west']);
    const cut = w.now;
    const heard = lastArrived(w, 'west', 'east')!.deliveredAt!;
    // West's channel tells it at once; east only knows that echoes stop coming.
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(lastArrived(w, 'east', 'west')!.deliveredAt!) });
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    advanceTo(w, heard + MISSED * INTERVAL - 1);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    advanceTo(w, heard + MISSED * INTERVAL);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });
    // No echo leaves over the cut link, however long the cut lasts.
    w.advance(3_600_000);
    expect(heartbeats(w, 'west', 'east').filter((m) => m.sentAt >= cut)).toEqual([]);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });

    w.heal(['east', 'west']);
    w.advance(1000);
    const t1 = connectedAt(w, 'west', kind);
    expect(t1).toBeGreaterThan(cut);
    // The handshake is the first exchange of the new connection.
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1) });
    advanceTo(w, t1 + INTERVAL + latency + 1);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1 + INTERVAL + latency) });
    expect(secondaryEntry(w, kind)).toMatchObject({ last_heartbeat: rfc3339(t1) });
    advanceTo(w, t1 + INTERVAL + 2 * latency + 1);
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1 + INTERVAL + 2 * latency) });
  });

  it('a slowed link delays them: each crosses with the latency the link had when it left, and the round trip shows it', () => {
    const w = pair();
    w.advance(11_000);
    const t0 = connectedAt(w, 'west', kind);
    w.slow(['east', 'west'], 1500);
    w.advance(20_000);
    const slowed = heartbeats(w, 'west', 'east').filter((m) => m.sentAt > w.now - 20_000);
    expect(slowed.length).toBeGreaterThan(2);
    for (const m of slowed) expect(m.deliveredAt! - m.sentAt).toBe(1500);
    const last = lastArrived(w, 'west', 'east')!;
    expect((last.sentAt - t0) % INTERVAL).toBe(0);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(last.deliveredAt!), last_heartbeat_duration_ms: '3000' });
    expect(secondaryEntry(w, kind)).toMatchObject({ last_heartbeat: rfc3339(lastArrived(w, 'east', 'west')!.deliveredAt!), last_heartbeat_duration_ms: '3000' });
    w.heal(['east', 'west']);
    w.advance(12_000);
    const latency = w.state.network.latencyMs;
    expect(primaryEntry(w, kind)).toMatchObject({ last_heartbeat: rfc3339(lastArrived(w, 'west', 'east')!.deliveredAt!), last_heartbeat_duration_ms: String(2 * latency) });
  });

  it('a slow link the answers cannot cross within the interval skips ticks, and the primary may count the secondary disconnected', () => {
    const w = pair();
    w.advance(1000);
    w.slow(['east', 'west'], 6000);
    w.advance(60_000);
    const sends = heartbeats(w, 'west', 'east').map((m) => m.sentAt);
    // One round trip at a time: 12 s each, so an echo every third tick once the link is slowed.
    const gaps = sends.slice(2).map((s, i) => s - sends[i + 1]);
    expect(new Set(gaps)).toEqual(new Set([15_000]));
    // 15 s between echoes is more than two intervals: the primary counts the secondary disconnected
    // before the next one arrives, while the secondary's connection stands.
    const last = lastArrived(w, 'west', 'east')!.deliveredAt!;
    // (the next one arrives 15 s after the last: within the next 10 s none does)
    advanceTo(w, Math.max(w.now, last + MISSED * INTERVAL));
    expect(lastArrived(w, 'west', 'east')!.deliveredAt).toBe(last);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(last) });
    expect((kind === 'dr' ? drStatus(w, 'west') : perfStatus(w, 'west')).connection_state).toBe('ready');
  });

  it('a restarted secondary reports none of the heartbeats it heard before its crash, until its new connection', () => {
    const w = pair();
    w.advance(7000);
    w.crash('west');
    const crash = w.now;
    const heard = lastArrived(w, 'west', 'east')!.deliveredAt!;
    // The primary, still running, remembers: connected until two intervals passed.
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    advanceTo(w, heard + MISSED * INTERVAL);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });
    w.restart('west');
    const entry = secondaryEntry(w, kind);
    expect(entry.connection_status).toBe('disconnected');
    expect(entry).not.toHaveProperty('last_heartbeat');
    expect(entry).not.toHaveProperty('last_heartbeat_duration_ms');
    w.advance(1000);
    const t1 = connectedAt(w, 'west', kind);
    expect(t1).toBeGreaterThan(crash);
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1) });
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1) });
  });

  it('a restarted primary reports none of the heartbeats it heard before its crash; the secondary hears no answer meanwhile', () => {
    const w = pair();
    w.advance(16_000);
    w.crash('east');
    const crash = w.now;
    const answered = lastArrived(w, 'east', 'west')!.deliveredAt!;
    w.advance(30_000);
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(answered) });
    expect(heartbeats(w, 'west', 'east').filter((m) => m.sentAt >= crash)).toEqual([]);
    w.restart('east');
    const entry = primaryEntry(w, kind);
    expect(entry.connection_status).toBe('disconnected');
    expect(entry).not.toHaveProperty('last_heartbeat');
    w.advance(60_000);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(lastArrived(w, 'west', 'east')!.deliveredAt!) });
  });
});

describe('heartbeats and the log', () => {
  /** A DR pair through a slow link, a cut, a heal, a secondary's crash and restart, with long waits between. */
  function run(): World {
    const w = drWorld();
    drPair(w);
    w.advance(61_000);
    w.slow(['east', 'west'], 2500);
    w.advance(17_777);
    w.partition(['east', 'west']);
    w.advance(33_333);
    w.heal(['east', 'west']);
    w.advance(20_000);
    w.crash('west');
    w.advance(7_777);
    w.restart('west');
    w.advance(3_600_000);
    return w;
  }

  const views = (w: World) => JSON.stringify([drStatus(w, 'east'), drStatus(w, 'west')]);
  const plain = (ms: readonly BusMessage[]) => JSON.parse(JSON.stringify(ms)) as unknown;

  it('a heartbeat that changes nothing is not an event: an hour of quiet on a connected link appends only the clock, and the bus carried every heartbeat', () => {
    const w = drWorld();
    drPair(w);
    w.advance(1000);
    const before = w.log.length;
    const heard = primaryEntry(w).last_heartbeat;
    const carried = heartbeats(w, 'west', 'east').length;
    w.advance(3_600_000);
    expect(w.log.slice(before).map((e) => e.type)).toEqual(['time-advanced']);
    expect(primaryEntry(w).last_heartbeat).not.toBe(heard);
    expect(heartbeats(w, 'west', 'east').length - carried).toBe(720);
    expect(heartbeats(w, 'east', 'west').length - carried).toBeGreaterThanOrEqual(719);
    // At most one heartbeat on its way per connection.
    expect(w.messages.filter((m) => m.kind === 'heartbeat' && m.deliveredAt === null && m.droppedAt === null).length).toBeLessThanOrEqual(1);
  });

  it('replay from the event log rebuilds the same state, views and heartbeat messages, and goes on the same way', () => {
    const w = run();
    const replayed = World.replay(w.log);
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(views(replayed)).toBe(views(w));
    expect(plain(replayed.messages)).toEqual(plain(w.messages));
    expect(w.messages.filter((m) => m.kind === 'heartbeat').length).toBeGreaterThan(1400);
    for (const step of [1, 4_999, 5_000, 12_345]) {
      w.advance(step);
      replayed.advance(step);
      expect(views(replayed)).toBe(views(w));
    }
    expect(plain(replayed.messages)).toEqual(plain(w.messages));
    // The same run twice writes the same log.
    expect(JSON.stringify(run().log)).toBe(JSON.stringify(run().log));
  });

  it('a fork carries the heartbeat on its way and goes on as its parent does', () => {
    const w = drWorld({ latencyMs: 2000 });
    drPair(w);
    w.advance(11_500);
    // Echo 2 is on its way (left at t0 + 10 s, 2 s each way).
    expect(w.messages.filter((m) => m.kind === 'heartbeat' && m.deliveredAt === null && m.droppedAt === null)).toHaveLength(1);
    const at = w.now;
    // A fork of a world that keeps no history of its messages rebuilds it from where it was forked.
    const f = drWorld({ latencyMs: 2000 });
    drPair(f);
    f.advance(11_500);
    const g = f.fork();
    expect(g.messages.filter((m) => m.kind === 'heartbeat').map((m) => m.sentAt)).toEqual([f.now - 500]);
    const forked = w.fork();
    const after = (x: World) => plain(x.messages.filter((m) => m.kind === 'heartbeat' && (m.deliveredAt ?? m.droppedAt ?? Infinity) > at));
    for (const x of [w, forked, g]) {
      x.advance(20_000);
      x.slow(['east', 'west'], 700);
      x.advance(9_000);
      x.crash('west');
    }
    expect(after(forked)).toEqual(after(w));
    expect(after(g)).toEqual(after(w));
    expect(views(forked)).toBe(views(w));
  });

  it('a heartbeat on its way when the connection ends is dropped, at that instant', () => {
    const w = drWorld({ latencyMs: 2000 });
    drPair(w);
    w.advance(10_000);
    // Echo 2 of the connection left at t0 + 10 s and is 2 s on its way.
    const t0 = connectedAt(w, 'west');
    advanceTo(w, t0 + 2 * INTERVAL + 1000);
    w.crash('east');
    const lost = heartbeats(w, 'west', 'east').filter((m) => m.droppedAt !== null);
    expect(lost.map((m) => [m.sentAt, m.droppedAt, m.dropReason])).toEqual([[t0 + 2 * INTERVAL, w.now, 'connection lost: east crashed']]);
  });

  it('what each side reports is what the heartbeat messages did, through random faults', () => {
    const clusters = ['east', 'west'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ wait: fc.integer({ min: 0, max: 40_000 }) }),
            fc.record({ slow: fc.integer({ min: 1, max: 7000 }) }),
            fc.constant({ heal: true as const }),
            fc.constant({ cut: true as const }),
            fc.record({ crash: fc.constantFrom(...clusters) }),
          ),
          { maxLength: 14 },
        ),
        (ops) => {
          const w = drWorld({ latencyMs: 20 });
          drPair(w);
          const down = new Set<string>();
          const check = () => {
            for (const [name, peer, side] of [['east', 'west', 'secondaries'], ['west', 'east', 'primaries']] as const) {
              if (down.has(name)) continue;
              const entry = drStatus(w, name)[side][0] as Entry | undefined;
              if (!entry?.last_heartbeat) continue;
              const last = lastArrived(w, peer, name);
              // The handshake of the latest connection, unless a heartbeat came after it.
              const t = last && last.deliveredAt! >= connectedAt(w, 'west') ? last.deliveredAt! : connectedAt(w, 'west');
              expect(entry.last_heartbeat).toBe(rfc3339(t));
            }
          };
          for (const op of ops) {
            if ('wait' in op) w.advance(op.wait);
            else if ('slow' in op) w.slow(['east', 'west'], op.slow);
            else if ('heal' in op) w.heal(['east', 'west']);
            else if ('cut' in op) w.partition(['east', 'west']);
            else if (down.has(op.crash)) {
              w.restart(op.crash);
              down.delete(op.crash);
            } else {
              w.crash(op.crash);
              down.add(op.crash);
            }
            check();
          }
          const replayed = World.replay(w.history());
          expect(replayed.stateHash()).toBe(w.stateHash());
          expect(plain(replayed.messages)).toEqual(plain(w.messages));
        },
      ),
      { numRuns: 60 },
    );
  });
});
