// The heartbeats of a replication connection. While a secondary's connection to its primary stands,
// the secondary sends an echo at the ticks of HEARTBEAT.intervalMs counted from the instant the
// connection was established (the handshake, the `connect` message, counts as the first exchange on
// both sides); the echo crosses the link with the link's latency as it is when the echo leaves, and
// the primary's answer leaves when the echo arrives, with the latency as it is then. One round trip
// at a time: the next echo leaves at the first tick after the previous one's that its answer has
// come back by (on a link slower than half the interval, ticks are skipped). A heartbeat arrives only
// before the connection ended: one due at the instant it ends is lost with it.
//
// The primary's `last_heartbeat` for a secondary is the last echo that reached it, the secondary's
// for its primary the last answer that reached it; a side counts the other `disconnected` once
// HEARTBEAT.missed intervals passed without one.
//
// Which heartbeats crossed is a function of logged facts: when the connection was established and
// when it ended (events the log holds anyway), and the link's latency, which changes only by a
// `slow` or a `heal` (events too). Between two changes of the latency the round trips repeat with one
// period, so where they stand at any instant is arithmetic (`heartbeatsBefore`, constant time); a
// change of the latency during a connection records where they stood then (`HeartbeatAnchor`, kept in
// the secondary's state by heartbeat-facts.ts), and the schedule goes on from there. The messages
// themselves are played on the bus by heartbeat-messages.ts from the same rules, at their times.

/**
 * The echo interval and the missed-heartbeat bound. No public source states the interval of
 * replication's heartbeats; 5 s is the service's cluster heartbeat interval (the echo its standbys
 * send the active node over the same cluster port), and 2 missed heartbeats is the bound its HA
 * health check applies to those echoes (README of this folder, "Heartbeats").
 */
export const HEARTBEAT = { intervalMs: 5000, missed: 2 } as const;

/** One heartbeat: its echo leaves the secondary at `sentAt`, reaches the primary at `echoAt`; the answer reaches the secondary at `answerAt`. */
export interface RoundTrip {
  sentAt: number;
  echoAt: number;
  answerAt: number;
}

/**
 * Where a connection's heartbeats stood at an instant `at` (the last change of the link's latency
 * during the connection): the last echo the primary had heard by then, the last answer the secondary
 * had heard and that round trip's duration, and the round trip under way — its echo's arrival fixed
 * by the latency it left with, its answer's too once the answer had left (`answerAt` null while it
 * had not: it leaves over the link as it is since). `connectedAt` names the connection it belongs to.
 */
export interface HeartbeatAnchor {
  connectedAt: number;
  at: number;
  primaryHeard: number;
  secondaryHeard: number;
  roundTripMs: number;
  sentAt: number;
  echoAt: number;
  answerAt: number | null;
}

/** The anchor of a connection whose link kept one latency since it was established: the handshake, heard by both sides at once. */
export function handshake(connectedAt: number, latencyMs: number): HeartbeatAnchor {
  return { connectedAt, at: connectedAt, primaryHeard: connectedAt, secondaryHeard: connectedAt, roundTripMs: 2 * latencyMs, sentAt: connectedAt, echoAt: connectedAt, answerAt: connectedAt };
}

/** One connection's heartbeats as the state gives them: where they stood at the anchor, the link's latency since, and when the connection ended (null while it stands). */
export interface HeartbeatLink {
  anchor: HeartbeatAnchor;
  latencyMs: number;
  endedAt: number | null;
}

/** When the echo after a round trip leaves: the first tick after the last one's that its answer has come back by. */
export function nextEchoAt(connectedAt: number, sentAt: number, answerAt: number, intervalMs: number = HEARTBEAT.intervalMs): number {
  const tick = Math.max(Math.floor((sentAt - connectedAt) / intervalMs) + 1, Math.ceil((answerAt - connectedAt) / intervalMs));
  return connectedAt + tick * intervalMs;
}

/** What had crossed before an instant: each side's last heartbeat heard, the last round trip's duration, and the last echo sent (its round trip). */
export interface HeartbeatProgress {
  primaryHeard: number;
  secondaryHeard: number;
  roundTripMs: number;
  /** The last round trip whose echo had left (the anchor's when none left since). */
  last: RoundTrip;
}

/**
 * The heartbeats that arrived strictly before `limit` (and before the connection ended), in constant
 * time: the anchor's round trip, then round trips of one period, each echo one latency out and its
 * answer one back.
 */
export function heartbeatsBefore(link: HeartbeatLink, limit: number, intervalMs: number = HEARTBEAT.intervalMs): HeartbeatProgress {
  const { anchor: a, latencyMs: L } = link;
  const stop = link.endedAt === null ? limit : Math.min(limit, link.endedAt);
  const first: RoundTrip = { sentAt: a.sentAt, echoAt: a.echoAt, answerAt: a.answerAt ?? a.echoAt + L };
  const out: HeartbeatProgress = { primaryHeard: a.primaryHeard, secondaryHeard: a.secondaryHeard, roundTripMs: a.roundTripMs, last: first };
  if (first.echoAt >= stop) return out;
  out.primaryHeard = Math.max(out.primaryHeard, first.echoAt);
  if (first.answerAt >= stop) return out;
  // An answer heard since the anchor (the anchor's own, or the handshake's, is counted in it already).
  if (first.answerAt > a.secondaryHeard) {
    out.secondaryHeard = first.answerAt;
    out.roundTripMs = first.answerAt - first.sentAt;
  }
  // The round trips since, all alike: round trip j leaves at s1 + j·period.
  const s1 = nextEchoAt(a.connectedAt, first.sentAt, first.answerAt, intervalMs);
  const period = intervalMs * Math.max(1, Math.ceil((2 * L) / intervalMs));
  const lastBefore = (offset: number) => Math.ceil((stop - s1 - offset) / period) - 1;
  const sent = lastBefore(0);
  if (sent < 0) return out;
  const s = s1 + sent * period;
  out.last = { sentAt: s, echoAt: s + L, answerAt: s + 2 * L };
  const echoed = lastBefore(L);
  if (echoed >= 0) out.primaryHeard = s1 + echoed * period + L;
  const answered = lastBefore(2 * L);
  if (answered >= 0) {
    out.secondaryHeard = s1 + answered * period + 2 * L;
    out.roundTripMs = 2 * L;
  }
  return out;
}

/**
 * Where the heartbeats stand at `at`, when the link's latency is about to change: what crossed before
 * it, and the round trip under way (its answer's time kept only if the answer left before `at`).
 */
export function anchorAt(link: HeartbeatLink, at: number): HeartbeatAnchor {
  const p = heartbeatsBefore(link, at);
  const { last } = p;
  return {
    connectedAt: link.anchor.connectedAt,
    at,
    primaryHeard: p.primaryHeard,
    secondaryHeard: p.secondaryHeard,
    roundTripMs: p.roundTripMs,
    sentAt: last.sentAt,
    echoAt: last.echoAt,
    answerAt: last.echoAt < at ? last.answerAt : null,
  };
}

/** One side's view of the other: the last heartbeat it heard, whether it still counts the other connected, and that round trip's duration. */
export interface HeartbeatView {
  lastHeartbeat: number;
  connected: boolean;
  roundTripMs: number;
}

/** The primary's view of a secondary at `now`: the last echo that reached it; connected until `missed` intervals passed without one. */
export function primaryView(link: HeartbeatLink, now: number): HeartbeatView {
  const p = heartbeatsBefore(link, now);
  return { lastHeartbeat: p.primaryHeard, connected: now < p.primaryHeard + HEARTBEAT.missed * HEARTBEAT.intervalMs, roundTripMs: p.roundTripMs };
}

/**
 * The secondary's view of its primary at `now`: the last answer that reached it; connected while its
 * own channel stands (it knows at once of a channel it lost) and until `missed` intervals passed without an answer.
 */
export function secondaryView(link: HeartbeatLink, now: number): HeartbeatView {
  const p = heartbeatsBefore(link, now);
  return { lastHeartbeat: p.secondaryHeard, connected: link.endedAt === null && now < p.secondaryHeard + HEARTBEAT.missed * HEARTBEAT.intervalMs, roundTripMs: p.roundTripMs };
}
