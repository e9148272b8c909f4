// The heartbeats' schedule (src/areas/replication/heartbeats.ts), checked against a reference that
// steps every heartbeat one by one: the module computes the last one that crossed arithmetically,
// so a long wait costs nothing per heartbeat; this file says what it must agree with.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEARTBEAT, heartbeatView, lastHeartbeatIndex, primaryView, secondaryView, type ConnectionSpan } from '../../../src/areas/replication/heartbeats.js';

/**
 * The reference: heartbeat k (k ≥ 1) arrives at t0 + k·interval + delay and counts when it arrived by
 * `now` and strictly before the connection ended; the establishment itself (k = 0) counts at t0. The
 * receiver counts the other side connected until `missed` heartbeats in a row were due and none came.
 */
function stepped(span: ConnectionSpan, now: number, delay: number, interval: number, missed: number): { index: number; last: number; connected: boolean } {
  let index = 0;
  let last = span.connectedAt;
  for (let k = 1; ; k++) {
    const arrives = span.connectedAt + k * interval + delay;
    if (arrives > now) break;
    if (span.disconnectedAt !== null && arrives >= span.disconnectedAt) break;
    index = k;
    last = arrives;
  }
  // The heartbeats after the last one: due one after another; `missed` of them due by now → disconnected.
  let due = 0;
  for (let k = index + 1; k <= index + missed; k++) if (span.connectedAt + k * interval + delay <= now) due++;
  return { index, last, connected: due < missed };
}

describe('the heartbeats schedule', () => {
  it('states its interval and bound', () => {
    expect(HEARTBEAT).toEqual({ intervalMs: 5000, missed: 2 });
  });

  it('counts the echoes of a standing connection every interval, one latency after each was sent', () => {
    const span = { connectedAt: 1000, disconnectedAt: null };
    // Before the first echo arrives (1000 + 5000 + 20), the establishment is the last exchange.
    expect(primaryView(span, 6019, 20)).toEqual({ lastHeartbeat: 1000, connected: true });
    expect(primaryView(span, 6020, 20)).toEqual({ lastHeartbeat: 6020, connected: true });
    expect(primaryView(span, 3_601_000, 20)).toEqual({ lastHeartbeat: 1000 + 719 * 5000 + 20, connected: true });
    // The secondary hears the answers, one more latency later.
    expect(secondaryView(span, 6039, 20)).toEqual({ lastHeartbeat: 1000, connected: true });
    expect(secondaryView(span, 6040, 20)).toEqual({ lastHeartbeat: 6040, connected: true });
  });

  it('loses a heartbeat due at the instant the connection ends, and keeps one that arrived just before', () => {
    expect(lastHeartbeatIndex({ connectedAt: 0, disconnectedAt: 10_020 }, 60_000, 20)).toBe(1);
    expect(lastHeartbeatIndex({ connectedAt: 0, disconnectedAt: 10_021 }, 60_000, 20)).toBe(2);
    // A connection that ended at the instant it was made carried nothing.
    expect(lastHeartbeatIndex({ connectedAt: 500, disconnectedAt: 500 }, 60_000, 20)).toBe(0);
  });

  it('marks the other side disconnected once two heartbeats in a row were due and did not come', () => {
    // Echo 2 arrived at 10_020; the connection ended at 12_000: echoes 3 (15_020) and 4 (20_020) are missed.
    const span = { connectedAt: 0, disconnectedAt: 12_000 };
    expect(primaryView(span, 15_020, 20)).toEqual({ lastHeartbeat: 10_020, connected: true });
    expect(primaryView(span, 20_019, 20)).toEqual({ lastHeartbeat: 10_020, connected: true });
    expect(primaryView(span, 20_020, 20)).toEqual({ lastHeartbeat: 10_020, connected: false });
    expect(primaryView(span, 1e12, 20)).toEqual({ lastHeartbeat: 10_020, connected: false });
    // Nothing after the establishment: two intervals and a latency later.
    expect(primaryView({ connectedAt: 0, disconnectedAt: 100 }, 10_019, 20).connected).toBe(true);
    expect(primaryView({ connectedAt: 0, disconnectedAt: 100 }, 10_020, 20).connected).toBe(false);
  });

  it('agrees with stepping every heartbeat', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }),
        fc.integer({ min: 0, max: 80_000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 7000 }),
        fc.integer({ min: 1, max: 4 }),
        (t0, length, after, delay, interval, missed) => {
          const span = { connectedAt: t0, disconnectedAt: length === null ? null : t0 + length };
          const now = t0 + after;
          const want = stepped(span, now, delay, interval, missed);
          expect(lastHeartbeatIndex(span, now, delay, interval)).toBe(want.index);
          expect(heartbeatView(span, now, delay, { intervalMs: interval, missed })).toEqual({ lastHeartbeat: want.last, connected: want.connected });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
