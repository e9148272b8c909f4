// The heartbeats of a replication connection, as messages with a schedule: while a secondary's
// connection to its primary is up, the secondary sends an echo every HEARTBEAT.intervalMs, counted
// from the instant the connection was established; each echo crosses the link in one latency and its
// answer comes back in another. The primary's `last_heartbeat` for a secondary is the last echo that
// reached it, the secondary's for its primary the last answer that reached it; a side marks the other
// `disconnected` once HEARTBEAT.missed heartbeats in a row were due and did not arrive.
//
// Which heartbeats crossed is a pure function of three logged facts — when the connection was
// established, when it ended (a cut link, a crash of either end, a revocation, a re-pointing: every
// such end is an event that moves the connection machine out of `ready`), and the world's latency —
// plus the interval. A heartbeat that arrives while the connection stands changes nothing, so it is
// neither an event nor a message kept on the bus: the status record computes, in constant time, the
// last one that crossed by `now` (a one-hour wait costs nothing per heartbeat), and a replay, folding
// the same connection and disconnection events, reads the same answers.
//
// A heartbeat crosses only while its connection stands: one due at the instant the connection ends
// is lost with it (at one instant the fault comes first, as the bus takes a fault's check before
// what falls due later).

/**
 * The echo interval and the missed-heartbeat bound. No public source states the interval of
 * replication's heartbeats; 5 s is the service's cluster heartbeat interval (the echo its standbys
 * send the active node over the same cluster port), and 2 missed heartbeats is the bound its HA
 * health check applies to those echoes (README of this folder, "Heartbeats").
 */
export const HEARTBEAT = { intervalMs: 5000, missed: 2 } as const;

/** One connection's logged facts: established at `connectedAt`, ended at `disconnectedAt` (null while it stands). */
export interface ConnectionSpan {
  connectedAt: number;
  disconnectedAt: number | null;
}

/**
 * The index of the last heartbeat (1, 2, …; 0 for the connection's own establishment, which both
 * sides count as an exchange) that reached its receiver by `now`, when heartbeat `k` arrives at
 * `connectedAt + k·interval + delay` and must arrive before the connection ended.
 */
export function lastHeartbeatIndex(span: ConnectionSpan, now: number, delayMs: number, intervalMs: number = HEARTBEAT.intervalMs): number {
  const first = span.connectedAt + delayMs;
  let k = Math.floor((now - first) / intervalMs);
  // Arrived strictly before the end: k·interval < end − first.
  if (span.disconnectedAt !== null) k = Math.min(k, Math.ceil((span.disconnectedAt - first) / intervalMs) - 1);
  return Math.max(0, k);
}

/** One side's view of the other over a connection: the last heartbeat it received, and whether it still counts the other connected. */
export interface HeartbeatView {
  lastHeartbeat: number;
  connected: boolean;
}

/**
 * The view of the side that receives heartbeats `delayMs` after they are sent (the primary: one
 * latency; the secondary, which receives the answers: two). It counts the other side connected
 * until `missed` heartbeats in a row were due (heartbeat `k` is due at its arrival time) and none came.
 */
export function heartbeatView(span: ConnectionSpan, now: number, delayMs: number, interval: { intervalMs: number; missed: number } = HEARTBEAT): HeartbeatView {
  const k = lastHeartbeatIndex(span, now, delayMs, interval.intervalMs);
  const lastHeartbeat = k === 0 ? span.connectedAt : span.connectedAt + k * interval.intervalMs + delayMs;
  const giveUpAt = span.connectedAt + (k + interval.missed) * interval.intervalMs + delayMs;
  return { lastHeartbeat, connected: now < giveUpAt };
}

/** The primary's view of a secondary over a connection: the echoes reach it one latency after they are sent. */
export function primaryView(span: ConnectionSpan, now: number, latencyMs: number): HeartbeatView {
  return heartbeatView(span, now, latencyMs);
}

/** The secondary's view of its primary: the answers to its echoes reach it two latencies after it sent them. */
export function secondaryView(span: ConnectionSpan, now: number, latencyMs: number): HeartbeatView {
  return heartbeatView(span, now, 2 * latencyMs);
}
