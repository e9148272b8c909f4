// The connection of one secondary to the primary it follows, for one kind of replication: what the
// status record reports as `connection_state` (gRPC connectivity: idle, connecting, ready,
// transient_failure) and `state` (idle, merkle-sync, merkle-diff, stream-wals; vault-api-facts.md,
// "Replication status"). docs/machines.md draws it.
//
//   idle ──follow──▶ connecting ──connect [link up]──▶ ready.merkle-sync | ready.merkle-diff | ready.stream-wals
//   ready.merkle-* ──sync-done──▶ ready.stream-wals
//   connecting | ready ──observe [unreachable | not a primary | other set | revoked]──▶ transient_failure
//   transient_failure ──observe [link up]──▶ connecting
//   connecting | ready | transient_failure ──lost (either end's process crashed)──▶ connecting
//   connecting | ready | transient_failure ──unfollow──▶ shutdown      idle ──unfollow──▶ idle
//   any ──reset (leaves the secondary role)──▶ idle
//
// A new secondary (activation) connects into a full merkle-sync; one re-pointed at a primary
// (update-primary, a DR promotion taking up a performance link) into a merkle-diff of the data it
// keeps; one that was streaming and lost its link resumes streaming.
//
// `shutdown` vs `transient_failure` (gRPC connectivity semantics, which `connection_state` reports:
// vault-api-facts.md, Replication status): TRANSIENT_FAILURE is a channel whose connection attempts
// fail and which keeps trying; SHUTDOWN is a channel its owner closed, never used again. So a
// secondary whose link is cut, whose primary crashed, was demoted or re-enabled as another set, or
// revoked its credentials keeps trying (its attempts are refused): transient_failure, and it
// reconnects by itself if the primary takes it again. A secondary told to forget its primary
// (update-primary with an empty token) closes its connection: shutdown, until it is pointed at a
// primary again (`follow`). A secondary that never had a connection (a demoted primary waiting to be
// pointed somewhere) is idle. A cluster that leaves the secondary role (promoted, disabled, enabled
// as a primary) reports no connection at all, so its connection is simply reset to idle.
//
// A connection belongs to the two processes it joins: when either crashes, the connection is gone
// (`lost`), whatever the network does next. The secondary dials again (`connecting`), and once the
// primary takes it, goes on where it was: a sync under way starts over, streaming resumes from the
// secondary's own WAL position.
//
// Like the role machine, the world keeps the connection as plain data and uses this machine as a pure
// transition function (`stepConnection`, asked through models/ask.ts like every machine), with the
// link's facts read from the world as guard inputs.
import { and, assign, or, setup, stateIn } from 'xstate';
import { take, targets } from './ask.js';

/** What a connected secondary does: sync all data, diff the data it holds, or stream new WALs. */
export type SyncPhase = 'merkle-sync' | 'merkle-diff' | 'stream-wals';

/** Why a link cannot carry replication, in the order the guards test it. */
export type LinkDownReason = 'unreachable' | 'revoked' | 'not-a-primary' | 'other-replication-set';

/** The facts of the link as the world sees it now: the guards read only these. */
export interface LinkFacts {
  /** Both sides running and no partition between them. */
  reachable: boolean;
  /** The cluster followed is (still) a primary of this kind. */
  primaryIsPrimary: boolean;
  /** It is the primary of the replication set the secondary belongs to (same cluster id). */
  sameReplicationSet: boolean;
  /** The primary takes the secondary's credentials (its id and token, not revoked in the set). */
  credentialsAccepted: boolean;
}

/** The connection as the world stores it and the status record reports it. */
export interface Connection {
  state: 'idle' | 'connecting' | 'transient_failure' | 'ready' | 'shutdown';
  /** While ready, what the link does; otherwise what it does once (re)connected. */
  phase: SyncPhase;
  /** Why the link is down, in transient_failure. */
  reason: LinkDownReason | null;
}

export type ConnectionEvent =
  | { type: 'follow'; phase: 'merkle-sync' | 'merkle-diff' }
  | { type: 'unfollow' }
  | { type: 'reset' }
  | { type: 'observe'; link: LinkFacts }
  | { type: 'connect'; link: LinkFacts }
  | { type: 'sync-done' }
  | { type: 'lost' };

/** The first fact that keeps the link down, or null when it can carry replication. */
export function linkDownReason(link: LinkFacts): LinkDownReason | null {
  if (!link.reachable) return 'unreachable';
  if (!link.primaryIsPrimary) return 'not-a-primary';
  if (!link.sameReplicationSet) return 'other-replication-set';
  if (!link.credentialsAccepted) return 'revoked';
  return null;
}

const factsOf = (event: ConnectionEvent): LinkFacts | null => ('link' in event ? event.link : null);

type ConnectionContext = { phase: SyncPhase; reason: LinkDownReason | null };

/**
 * What each action changes of the context: the machine's actions assign these, and stepConnection
 * applies the ones of the row the machine took, so each is written once.
 */
const EFFECTS = {
  rememberPhase: (event: ConnectionEvent): Partial<ConnectionContext> => ({ phase: event.type === 'follow' ? event.phase : 'stream-wals', reason: null }),
  resumeStreaming: (): Partial<ConnectionContext> => ({ phase: 'stream-wals' }),
  rememberReason: (event: ConnectionEvent): Partial<ConnectionContext> => ({ reason: linkDownReason(factsOf(event)!) }),
  forgetReason: (): Partial<ConnectionContext> => ({ reason: null }),
} satisfies Record<string, (event: ConnectionEvent) => Partial<ConnectionContext>>;

export const secondaryConnectionMachine = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
  },
  guards: {
    primaryReachable: ({ event }) => factsOf(event)?.reachable === true,
    issuerStillPrimary: ({ event }) => factsOf(event)?.primaryIsPrimary === true,
    sameReplicationSet: ({ event }) => factsOf(event)?.sameReplicationSet === true,
    credentialsAccepted: ({ event }) => factsOf(event)?.credentialsAccepted === true,
    linkDown: ({ event }) => {
      const link = factsOf(event);
      return link !== null && linkDownReason(link) !== null;
    },
    hasConnection: or([stateIn('#secondaryConnection.connecting'), stateIn('#secondaryConnection.ready'), stateIn('#secondaryConnection.transient_failure')]),
    initialSyncPending: ({ context }) => context.phase === 'merkle-sync',
    diffPending: ({ context }) => context.phase === 'merkle-diff',
  },
  actions: {
    rememberPhase: assign(({ event }) => EFFECTS.rememberPhase(event)),
    resumeStreaming: assign(() => EFFECTS.resumeStreaming()),
    rememberReason: assign(({ event }) => EFFECTS.rememberReason(event)),
    forgetReason: assign(() => EFFECTS.forgetReason()),
  },
}).createMachine({
  id: 'secondaryConnection',
  context: { phase: 'stream-wals', reason: null },
  initial: 'idle',
  // Pointed at a primary (again) from anywhere: connect afresh, then sync or diff.
  on: {
    follow: { target: '.connecting', actions: 'rememberPhase' },
    // The secondary closes the connection it had (forgets its primary): closed for good.
    unfollow: { target: '.shutdown', actions: 'forgetReason' },
    // The cluster leaves the secondary role (promoted, disabled, enabled as a primary): no connection.
    reset: { target: '.idle', actions: 'forgetReason' },
    // Either end's process crashed: the connection it had (or was making) is gone; it dials again.
    // The phase it was in is kept: a sync starts over, streaming resumes.
    lost: { guard: 'hasConnection', target: '.connecting', actions: 'forgetReason' },
  },
  states: {
    idle: {
      on: { unfollow: { target: 'idle' } },
    },
    shutdown: {
      on: { unfollow: { target: 'shutdown' } },
    },
    connecting: {
      on: {
        observe: { guard: 'linkDown', target: 'transient_failure', actions: 'rememberReason' },
        connect: [
          {
            guard: and(['primaryReachable', 'issuerStillPrimary', 'sameReplicationSet', 'credentialsAccepted', 'initialSyncPending']),
            target: 'ready.merkle-sync',
          },
          {
            guard: and(['primaryReachable', 'issuerStillPrimary', 'sameReplicationSet', 'credentialsAccepted', 'diffPending']),
            target: 'ready.merkle-diff',
          },
          { guard: and(['primaryReachable', 'issuerStillPrimary', 'sameReplicationSet', 'credentialsAccepted']), target: 'ready.stream-wals' },
        ],
      },
    },
    transient_failure: {
      on: {
        // Healed, re-issued, the primary back: try again.
        observe: [
          { guard: 'linkDown', target: 'transient_failure', actions: 'rememberReason' },
          { target: 'connecting', actions: 'forgetReason' },
        ],
      },
    },
    ready: {
      // Entered only by `connect`, into the phase the connection was waiting for.
      initial: 'stream-wals',
      on: {
        // Partition, crash, revocation, the primary demoted or re-enabled as another set.
        observe: { guard: 'linkDown', target: 'transient_failure', actions: 'rememberReason' },
      },
      states: {
        'merkle-sync': { on: { 'sync-done': { target: 'stream-wals', actions: 'resumeStreaming' } } },
        'merkle-diff': { on: { 'sync-done': { target: 'stream-wals', actions: 'resumeStreaming' } } },
        'stream-wals': {},
      },
    },
  },
});

/** The state a connection stands in, as the machine names it (`ready.stream-wals`). */
function stateName(c: Connection): string {
  return c.state === 'ready' ? READY[c.phase] : c.state;
}
const READY: Record<SyncPhase, string> = { 'merkle-sync': 'ready.merkle-sync', 'merkle-diff': 'ready.merkle-diff', 'stream-wals': 'ready.stream-wals' };

/** The connection after the event, or null when the machine does not take it in this state (asked as models/ask.ts asks every machine). */
export function stepConnection(c: Connection, event: ConnectionEvent): Connection | null {
  const answer = take(secondaryConnectionMachine, stateName(c), c, event);
  if (answer === null) return null;
  let context: ConnectionContext = c;
  for (const action of answer.actions) context = { ...context, ...EFFECTS[action as keyof typeof EFFECTS](event) };
  const dot = answer.next.indexOf('.');
  const state = (dot < 0 ? answer.next : answer.next.slice(0, dot)) as Connection['state'];
  const phase = dot < 0 ? context.phase : (answer.next.slice(dot + 1) as SyncPhase);
  return { state, phase, reason: state === 'transient_failure' ? context.reason : null };
}

/**
 * The connection a recorded move leaves: `to`, when a row of the table moves `c` there on events of
 * `type`. The guards are not asked again: the process that recorded the move asked them with the
 * link's facts then. Null when no row does (a history edited or made by hand).
 */
export function recordedMove(c: Connection, type: ConnectionEvent['type'], to: Connection): Connection | null {
  return targets(secondaryConnectionMachine, stateName(c), type).includes(stateName(to)) ? to : null;
}

/** The connection as it stands given the link's facts now (a fault since the last event shows at once). */
export function observeConnection(c: Connection, link: LinkFacts): Connection {
  return stepConnection(c, { type: 'observe', link }) ?? c;
}

/** What the status record reports for it: `connection_state` and `state`. */
export function reportedConnection(c: Connection): { state: 'idle' | SyncPhase; connection_state: Connection['state'] } {
  return { state: c.state === 'ready' ? c.phase : 'idle', connection_state: c.state };
}

export const IDLE_CONNECTION: Connection = { state: 'idle', phase: 'stream-wals', reason: null };
export const SHUTDOWN_CONNECTION: Connection = { state: 'shutdown', phase: 'stream-wals', reason: null };
