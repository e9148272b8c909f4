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
// transition function (`stepConnection`), with the link's facts read from the world as guard inputs.
import { and, assign, or, setup, stateIn, transition, type SnapshotFrom } from 'xstate';

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

export const secondaryConnectionMachine = setup({
  types: {
    context: {} as { phase: SyncPhase; reason: LinkDownReason | null },
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
    rememberPhase: assign({ phase: ({ event }) => (event.type === 'follow' ? event.phase : 'stream-wals'), reason: null }),
    resumeStreaming: assign({ phase: 'stream-wals' as SyncPhase }),
    rememberReason: assign({ reason: ({ event }) => linkDownReason(factsOf(event)!) }),
    forgetReason: assign({ reason: null }),
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

type ConnectionSnapshot = SnapshotFrom<typeof secondaryConnectionMachine>;

function snapshotOf(c: Connection): ConnectionSnapshot {
  const value = c.state === 'ready' ? { ready: c.phase } : c.state;
  return secondaryConnectionMachine.resolveState({ value, context: { phase: c.phase, reason: c.reason } });
}

function connectionOfSnapshot(snap: ConnectionSnapshot): Connection {
  const v = snap.value as string | Record<string, string>;
  const state = (typeof v === 'string' ? v : Object.keys(v)[0]) as Connection['state'];
  const phase = typeof v === 'string' ? snap.context.phase : (v.ready as SyncPhase);
  return { state, phase, reason: state === 'transient_failure' ? snap.context.reason : null };
}

// Each input's values numbered; a Record over the input's type, so a value added to the type must be
// numbered here (the compiler says so) rather than colliding with another in the key below.
const STATE: Record<Connection['state'], number> = { idle: 0, connecting: 1, transient_failure: 2, ready: 3, shutdown: 4 };
const PHASE: Record<SyncPhase, number> = { 'merkle-sync': 0, 'merkle-diff': 1, 'stream-wals': 2 };
/** 0 is no reason. */
const REASON: Record<LinkDownReason, number> = { unreachable: 1, revoked: 2, 'not-a-primary': 3, 'other-replication-set': 4 };
const EVENT: Record<ConnectionEvent['type'], number> = { follow: 0, connect: 1, 'sync-done': 2, observe: 3, unfollow: 4, reset: 5, lost: 6 };
const PHASES = Object.keys(PHASE).length;
const REASONS = Object.keys(REASON).length + 1;
const EVENTS = Object.keys(EVENT).length;

/**
 * Every input the guards and actions read, as a number: each combination is asked of the machine
 * once. (A number, not a text key: the link's streaming asks at every WAL delivered, and building and
 * hashing a text key there would cost more than the rest of the delivery's check.)
 */
function factsKey(c: Connection, e: ConnectionEvent): number {
  const l = factsOf(e);
  const facts = l ? 16 + (l.reachable ? 8 : 0) + (l.primaryIsPrimary ? 4 : 0) + (l.sameReplicationSet ? 2 : 0) + (l.credentialsAccepted ? 1 : 0) : 0;
  const phase = e.type === 'follow' ? 1 + PHASE[e.phase] : 0;
  const reason = c.reason === null ? 0 : REASON[c.reason];
  return ((((STATE[c.state] * PHASES + PHASE[c.phase]) * REASONS + reason) * EVENTS + EVENT[e.type]) * (PHASES + 1) + phase) * 32 + facts;
}

const outcomes = new Map<number, Connection | null>();

/** The connection after the event, or null when the machine does not take it in this state. */
export function stepConnection(c: Connection, event: ConnectionEvent): Connection | null {
  const key = factsKey(c, event);
  let next = outcomes.get(key);
  if (next === undefined) {
    const snap = snapshotOf(c);
    next = snap.can(event) ? connectionOfSnapshot(transition(secondaryConnectionMachine, snap, event)[0]) : null;
    outcomes.set(key, next);
  }
  return next;
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
