// The heartbeats of each replication connection as messages on the bus (src/kernel/bus.ts): the
// secondary's echo (`heartbeat`, secondary → primary) and the primary's answer (`heartbeat`, primary →
// secondary), played by a paced process per connection ("heartbeat:dr:west") on the schedule
// heartbeats.ts states — an echo at the interval's ticks from the connection's handshake, crossing
// the link with its latency as it is when the message leaves (a `slow` link delays it), one round
// trip at a time. The bus holds at most one heartbeat in flight per connection, and plays them
// without an event each (a heartbeat that arrives changes nothing the log must hold: each side's
// view follows from the connection's logged facts, heartbeat-facts.ts); what ends the connection (a
// cut, a crash of either end, a revocation, a re-pointing) is an event, at which the heartbeat on
// its way is dropped.
import type { MessageSource, Pacer, PacerStep } from '../../kernel/bus.js';
import { isUp, linkLatency, reachable } from '../../kernel/network.js';
import type { SimEvent } from '../core/events.js';
import type { ReplicationKind, SimState } from '../core/state.js';
import { KIND_WORD, REPLICATION_KINDS } from '../core/vocabulary.js';
import { HEARTBEAT, nextEchoAt } from './heartbeats.js';
import type { ReplicationState } from './state.js';

const PREFIX = 'heartbeat';

/** What stays the same over one connection's heartbeats: made once when it comes up, shared by every step. */
interface Connection {
  kind: ReplicationKind;
  secondary: string;
  primary: string;
  connectedAt: number;
  /** Ids and labels of its messages, up to the heartbeat's number. */
  echoId: string;
  answerId: string;
  echoLabel: string;
  answerLabel: string;
}

/** One connection's heartbeat under way: its echo due to leave, or its echo or answer in flight (`id`). */
interface Beat {
  c: Connection;
  phase: 'echo-due' | 'echo' | 'answer';
  sentAt: number;
  /** When the message in flight arrives (the echo's leaving, while it is due to leave). */
  at: number;
  id: string | null;
}

/** Whether a secondary's record holds a connection that stands. */
function standing(r: ReplicationState | undefined): r is ReplicationState & { primary: string; connectedAt: number } {
  return !!r && r.role === 'secondary.following' && r.primary !== null && r.connectedAt !== null && r.connected && r.disconnectedAt === null;
}

/**
 * Names the heartbeat processes of the connections an event may have started or ended: every link
 * its reducers reported they touched (touched.ts: whatever a secondary's heartbeats depend on, its
 * connection, its primary, its role, changes only with a report of its link). A process looked at
 * whose connection stands as it was goes on as it was (`paceHeartbeats`), so a report of a link
 * whose heartbeats did not change names a process for nothing. In the table's order of clusters,
 * DR before performance.
 */
export const heartbeatSource: MessageSource<SimState, SimEvent> = (_before, _event, after, _bus, touched) => {
  let keys: { kind: ReplicationKind; cluster: string; key: string }[] | null = null;
  for (const t of touched) {
    if (t.what === 'wal') continue;
    const key = `${PREFIX}:${t.kind}:${t.cluster}`;
    if (!keys?.some((k) => k.key === key)) (keys ??= []).push({ kind: t.kind, cluster: t.cluster, key });
  }
  if (!keys) return null;
  if (keys.length > 1) {
    // Most events touch one link; an event touching several is rare enough to find each cluster's place.
    const names = after.clusters.names;
    const place = (k: { kind: ReplicationKind; cluster: string }) => names.indexOf(k.cluster) * REPLICATION_KINDS.length + REPLICATION_KINDS.indexOf(k.kind);
    keys.sort((x, y) => place(x) - place(y));
  }
  return { sent: [], delivered: [], paced: keys.map((k) => k.key) };
};

/** The heartbeat number of an echo leaving at `sentAt` (its tick since the handshake). */
function numberOf(beat: Beat): number {
  return Math.round((beat.sentAt - beat.c.connectedAt) / HEARTBEAT.intervalMs);
}

/** Why the heartbeat on its way over a connection that ended is lost. */
function lostBecause(state: SimState, c: Connection): string {
  if (!isUp(state.network, c.primary)) return `connection lost: ${c.primary} crashed`;
  if (!isUp(state.network, c.secondary)) return `connection lost: ${c.secondary} crashed`;
  if (!reachable(state.network, c.secondary, c.primary)) return `connection lost: link ${c.secondary}–${c.primary} cut`;
  return `connection ended: ${c.secondary} no longer connected to ${c.primary}`;
}

/** A connection's first echo, due at the first tick after `at` (the handshake's instant, when it just came up). */
function firstEcho(kind: ReplicationKind, name: string, r: { primary: string; connectedAt: number }, at: number): PacerStep {
  const tick = Math.floor((at - r.connectedAt) / HEARTBEAT.intervalMs) + 1;
  const sentAt = r.connectedAt + tick * HEARTBEAT.intervalMs;
  const word = KIND_WORD[kind];
  const c: Connection = {
    kind,
    secondary: name,
    primary: r.primary,
    connectedAt: r.connectedAt,
    echoId: `${PREFIX}:${kind}:${name}>${r.primary}@${r.connectedAt}#`,
    answerId: `${PREFIX}:${kind}:${r.primary}>${name}@${r.connectedAt}#`,
    echoLabel: ` (${word})`,
    answerLabel: ` answer (${word})`,
  };
  const beat: Beat = { c, phase: 'echo-due', sentAt, at: sentAt, id: null };
  return { next: sentAt, memo: beat };
}

export const paceHeartbeats: Pacer<SimState> = (state, key, memo, at, cause) => {
  const beat = memo as Beat | null;
  if (beat && cause === 'due') return step(state, beat, at);
  const [, kind, name] = key.split(':') as [string, ReplicationKind, string];
  const r = state.clusters.get(name)?.replication[kind];
  const up = standing(r);
  if (beat && !(up && r.primary === beat.c.primary && r.connectedAt === beat.c.connectedAt)) {
    // The connection it belonged to ended: what is on its way is lost with it; a new one starts afresh.
    const dropped = beat.id === null ? [] : [{ id: beat.id, reason: lostBecause(state, beat.c) }];
    return { dropped, ...(up ? firstEcho(kind, name, r, at) : { next: null, memo: null }) };
  }
  if (!beat) return up ? firstEcho(kind, name, r, at) : { next: null, memo: null };
  return { next: beat.at, memo: beat };
};

/**
 * A heartbeat's next move at its time. The connection stands (an event that ends it names this
 * process, which then drops what is on its way), so the state is only read for the link's latency.
 */
function step(state: SimState, beat: Beat, at: number): PacerStep {
  const { c } = beat;
  switch (beat.phase) {
    case 'echo-due': {
      // The echo leaves over the link as it is now.
      const n = numberOf(beat);
      const arrives = at + linkLatency(state.network, c.secondary, c.primary);
      const id = c.echoId + n;
      const echo = { id, kind: PREFIX, from: c.secondary, to: c.primary, sentAt: at, dueAt: arrives, label: 'heartbeat ' + n + c.echoLabel, order: n };
      return { sent: [echo], next: arrives, memo: { c, phase: 'echo', sentAt: beat.sentAt, at: arrives, id } };
    }
    case 'echo': {
      // The primary answers as the echo arrives.
      const n = numberOf(beat);
      const arrives = at + linkLatency(state.network, c.secondary, c.primary);
      const id = c.answerId + n;
      const answer = { id, kind: PREFIX, from: c.primary, to: c.secondary, sentAt: at, dueAt: arrives, label: 'heartbeat ' + n + c.answerLabel, order: n };
      return { delivered: [beat.id!], sent: [answer], next: arrives, memo: { c, phase: 'answer', sentAt: beat.sentAt, at: arrives, id } };
    }
    case 'answer': {
      const sentAt = nextEchoAt(c.connectedAt, beat.sentAt, at);
      return { delivered: [beat.id!], next: sentAt, memo: { c, phase: 'echo-due', sentAt, at: sentAt, id: null } };
    }
  }
}

export const heartbeatPacers = { [PREFIX]: paceHeartbeats };
