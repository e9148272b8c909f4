// The heartbeats' schedule (src/areas/replication/heartbeats.ts), checked against a reference that
// steps every heartbeat one by one over a link whose latency changes: the module computes where they
// stand arithmetically from the last change (an anchor), so a long wait costs nothing per heartbeat;
// this file says what it must agree with.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorAt, handshake, HEARTBEAT, heartbeatsBefore, nextEchoAt, primaryView, secondaryView, type HeartbeatLink } from '../../../src/areas/replication/heartbeats.js';

const I = 5000;
const MISSED = 2;

/**
 * The reference: the handshake at t0 counts on both sides (its round trip: twice the latency then);
 * echo after echo leaves at the ticks t0 + k·I, the first one interval after t0, each at the first
 * tick after the last one's that its answer came back by; an echo crosses with the latency at its
 * leaving (a change at that very instant applies), its answer leaves as the echo arrives, with the
 * latency then; a message counts when it arrived strictly before `now` and before the end.
 */
function stepped(t0: number, latency: (t: number) => number, end: number | null, now: number) {
  const stop = Math.min(now, end ?? Infinity);
  let heardP = t0;
  let heardS = t0;
  let rtt = 2 * latency(t0);
  for (let s = t0 + I; s < stop; ) {
    const p = s + latency(s);
    if (p >= stop) break;
    heardP = p;
    const a = p + latency(p);
    if (a >= stop) break;
    heardS = a;
    rtt = a - s;
    let next = s + I;
    while (next < a) next += I;
    s = next;
  }
  return {
    primary: { lastHeartbeat: heardP, connected: now < heardP + MISSED * I, roundTripMs: rtt },
    secondary: { lastHeartbeat: heardS, connected: end === null && now < heardS + MISSED * I, roundTripMs: rtt },
  };
}

/** The module's answer, anchored at each change of latency as the world's upkeep does (heartbeat-facts.ts). */
function anchored(t0: number, base: number, changes: [number, number][], end: number | null) {
  let link: HeartbeatLink = { anchor: handshake(t0, base), latencyMs: base, endedAt: null };
  for (const [at, ms] of changes) {
    const endedAt = end !== null && end <= at ? end : null;
    link = { anchor: anchorAt({ ...link, endedAt }, at), latencyMs: ms, endedAt: null };
  }
  return { ...link, endedAt: end };
}

describe('the heartbeats schedule', () => {
  it('states its interval and bound', () => {
    expect(HEARTBEAT).toEqual({ intervalMs: 5000, missed: 2 });
  });

  it('counts the echoes of a standing connection every interval, one latency after each was sent, strictly before now', () => {
    const link = { anchor: handshake(1000, 20), latencyMs: 20, endedAt: null };
    // Until the first echo has arrived (1000 + 5000 + 20), the handshake is the last exchange.
    expect(primaryView(link, 6020)).toEqual({ lastHeartbeat: 1000, connected: true, roundTripMs: 40 });
    expect(primaryView(link, 6021)).toEqual({ lastHeartbeat: 6020, connected: true, roundTripMs: 40 });
    expect(primaryView(link, 3_601_000)).toEqual({ lastHeartbeat: 1000 + 719 * 5000 + 20, connected: true, roundTripMs: 40 });
    // The secondary hears the answers, one more latency later.
    expect(secondaryView(link, 6040)).toEqual({ lastHeartbeat: 1000, connected: true, roundTripMs: 40 });
    expect(secondaryView(link, 6041)).toEqual({ lastHeartbeat: 6040, connected: true, roundTripMs: 40 });
  });

  it('skips ticks on a link slower than half the interval', () => {
    // 3 s each way: a round trip of 6 s, so an echo every other tick.
    expect(nextEchoAt(0, 5000, 11_000)).toBe(15_000);
    expect(nextEchoAt(0, 5000, 10_000)).toBe(10_000);
    const link = { anchor: handshake(0, 3000), latencyMs: 3000, endedAt: null };
    expect(heartbeatsBefore(link, 30_000)).toMatchObject({ primaryHeard: 28_000, secondaryHeard: 21_000, roundTripMs: 6000 });
  });

  it('loses a heartbeat due at the instant the connection ends, and keeps one that arrived just before', () => {
    const at = (end: number) => primaryView({ anchor: handshake(0, 20), latencyMs: 20, endedAt: end }, 60_000).lastHeartbeat;
    expect(at(10_020)).toBe(5020);
    expect(at(10_021)).toBe(10_020);
    // A connection that ended at the instant it was made carried only its handshake.
    expect(primaryView({ anchor: handshake(500, 20), latencyMs: 20, endedAt: 500 }, 60_000).lastHeartbeat).toBe(500);
  });

  it('marks the other side disconnected once two intervals passed without a heartbeat', () => {
    // Echo 2 arrived at 10_020; the connection ended at 12_000.
    const link = { anchor: handshake(0, 20), latencyMs: 20, endedAt: 12_000 };
    expect(primaryView(link, 20_019)).toMatchObject({ lastHeartbeat: 10_020, connected: true });
    expect(primaryView(link, 20_020)).toMatchObject({ lastHeartbeat: 10_020, connected: false });
    expect(primaryView(link, 1e12)).toMatchObject({ lastHeartbeat: 10_020, connected: false });
    // The secondary knows of its own channel's end at once.
    expect(secondaryView(link, 12_000)).toMatchObject({ lastHeartbeat: 10_040, connected: false });
  });

  it('a latency that changes while an echo is on its way: the echo keeps the latency it left with, its answer takes the new one', () => {
    // Echo 1 leaves at 5000 over 20 ms; the link is slowed to 2 s at 5010, before it arrives.
    const link = anchored(0, 20, [[5010, 2000]], null);
    expect(link.anchor).toMatchObject({ sentAt: 5000, echoAt: 5020, answerAt: null });
    expect(heartbeatsBefore(link, 10_000)).toMatchObject({ primaryHeard: 5020, secondaryHeard: 7020, roundTripMs: 2020 });
    // Echo 2 leaves at 10_000 over 2 s.
    expect(heartbeatsBefore(link, 15_000)).toMatchObject({ primaryHeard: 12_000, secondaryHeard: 14_000, roundTripMs: 4000 });
  });

  it('agrees with stepping every heartbeat, over changes of the latency and an end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 4000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 0, max: 7000 })), { maxLength: 4 }),
        fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: null }),
        fc.integer({ min: 0, max: 120_000 }),
        (t0, base, raw, length, after) => {
          // Changes at distinct instants after the connection was made; `now` after the last one.
          const changes = [...new Map(raw.map(([d, ms]) => [t0 + d, ms])).entries()].sort((a, b) => a[0] - b[0]);
          const end = length === null ? null : t0 + length;
          if (end !== null && changes.some(([at]) => at === end)) return;
          const now = Math.max(t0, changes.length ? changes[changes.length - 1][0] : t0) + after;
          const latency = (t: number) => {
            let l = base;
            for (const [at, ms] of changes) if (at <= t) l = ms;
            return l;
          };
          const want = stepped(t0, latency, end, now);
          const link = anchored(t0, base, changes, end);
          expect(primaryView(link, now)).toEqual(want.primary);
          expect(secondaryView(link, now)).toEqual(want.secondary);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
