// Heartbeats in a running world: what each side of a link reports (`connection_status`,
// `last_heartbeat`) follows from the echoes that crossed it — the secondary sends one every 5 s from
// the connection's start, each one latency on its way, answered in another — and a cut link, a
// crashed end stop them. The expected instants are computed here from the log's connection events
// and those two figures, not with the simulator's schedule (src/areas/replication/heartbeats.ts).
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { rfc3339 } from '../../../src/kernel/clock.js';
import { drPair, drStatus, drWorld } from './helpers.js';
import { perfPair, perfStatus, perfWorld } from './performance/helpers.js';

const INTERVAL = 5000;
const MISSED = 2;

type Kind = 'dr' | 'performance';

/** When `secondary`'s latest connection of `kind` came up, from the log. */
function connectedAt(w: World, secondary: string, kind: Kind = 'dr'): number {
  const up = w.log.filter((e) => e.type === 'replication-secondary-connected' && e.cluster === secondary && e.kind === kind);
  return up[up.length - 1].at;
}

/** The last heartbeat sent over a connection up at `t0` that arrived `delay` after it left, before `end` and by `now`; t0 when none. */
function lastArrival(t0: number, delay: number, end: number, now: number): number {
  let last = t0;
  for (let at = t0 + INTERVAL + delay; at < end && at <= now; at += INTERVAL) last = at;
  return last;
}

function primaryEntry(w: World, kind: Kind = 'dr'): { connection_status: string; last_heartbeat: string } {
  return (kind === 'dr' ? drStatus(w, 'east') : perfStatus(w, 'east')).secondaries[0];
}

function secondaryEntry(w: World, kind: Kind = 'dr'): { connection_status: string; last_heartbeat: string } {
  return (kind === 'dr' ? drStatus(w, 'west') : perfStatus(w, 'west')).primaries[0];
}

/** Moves the clock to `at`. */
function advanceTo(w: World, at: number): void {
  expect(at).toBeGreaterThanOrEqual(w.now);
  w.advance(at - w.now);
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

  it('a cut link stops them: the primary marks the secondary disconnected only after two missed heartbeats, and a heal resumes them', () => {
    const w = pair();
    const latency = w.state.network.latencyMs;
    w.advance(12_345);
    const t0 = connectedAt(w, 'west', kind);
    // Connected, echoes crossing: east's last is the latest one that arrived.
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(lastArrival(t0, latency, Infinity, w.now)) });
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(lastArrival(t0, 2 * latency, Infinity, w.now)) });

    w.partition(['east', 'west']);
    const cut = w.now;
    const heard = lastArrival(t0, latency, cut, cut);
    expect(heard).toBeGreaterThan(t0);
    // West's channel tells it at once; east only knows that echoes stop coming.
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(lastArrival(t0, 2 * latency, cut, cut)) });
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    // The first missed echo was due one interval after the last heard, the second one interval later.
    const giveUp = heard + MISSED * INTERVAL;
    advanceTo(w, giveUp - 1);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    advanceTo(w, giveUp);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });
    // And last_heartbeat stops advancing, however long the cut lasts.
    w.advance(3_600_000);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });

    w.heal(['east', 'west']);
    w.advance(1000);
    const t1 = connectedAt(w, 'west', kind);
    expect(t1).toBeGreaterThan(cut);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1) });
    advanceTo(w, t1 + INTERVAL + latency);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1 + INTERVAL + latency) });
    advanceTo(w, t1 + INTERVAL + 2 * latency);
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1 + INTERVAL + 2 * latency) });
  });

  it('a crashed secondary stops them; its restart brings a new connection and new heartbeats', () => {
    const w = pair();
    const latency = w.state.network.latencyMs;
    w.advance(7000);
    const t0 = connectedAt(w, 'west', kind);
    w.crash('west');
    const crash = w.now;
    const heard = lastArrival(t0, latency, crash, crash);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(heard) });
    advanceTo(w, heard + MISSED * INTERVAL);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(heard) });
    w.restart('west');
    w.advance(1000);
    const t1 = connectedAt(w, 'west', kind);
    expect(t1).toBeGreaterThan(crash);
    expect(primaryEntry(w, kind)).toMatchObject({ connection_status: 'connected', last_heartbeat: rfc3339(t1) });
  });

  it('a crashed primary stops the answers the secondary hears', () => {
    const w = pair();
    const latency = w.state.network.latencyMs;
    w.advance(16_000);
    const t0 = connectedAt(w, 'west', kind);
    w.crash('east');
    const crash = w.now;
    w.advance(30_000);
    expect(secondaryEntry(w, kind)).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(lastArrival(t0, 2 * latency, crash, crash)) });
  });
});

describe('heartbeats and the log', () => {
  /** A DR pair through a cut, a heal, a secondary's crash and restart, with long waits between. */
  function run(): World {
    const w = drWorld();
    drPair(w);
    w.advance(61_000);
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

  it('a heartbeat that changes nothing is not an event: an hour of quiet on a connected link appends only the clock', () => {
    const w = drWorld();
    drPair(w);
    w.advance(1000);
    const before = w.log.length;
    const heard = primaryEntry(w).last_heartbeat;
    w.advance(3_600_000);
    expect(w.log.slice(before).map((e) => e.type)).toEqual(['time-advanced']);
    expect(primaryEntry(w).last_heartbeat).not.toBe(heard);
  });

  it('replay from the event log rebuilds the same views, byte for byte, at every instant', () => {
    const w = run();
    const replayed = World.replay(w.log);
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(views(replayed)).toBe(views(w));
    // And they go on the same way.
    for (const step of [1, 4_999, 5_000, 12_345]) {
      w.advance(step);
      replayed.advance(step);
      expect(views(replayed)).toBe(views(w));
    }
    // The same run twice writes the same log.
    expect(JSON.stringify(run().log)).toBe(JSON.stringify(run().log));
  });
});
