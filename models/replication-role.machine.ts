// The replication role of one cluster, for one kind of replication (DR or performance): the spec's
// role table. The same machine serves both kinds; the kind decides only whether the secondary-side
// calls need a DR operation token. A cluster holds two of these, one per kind.
//
// The world keeps roles as plain values in its state and uses this machine as a pure transition
// function (`stepRole`, `canRole`), so that forks of a world share state and replay needs no actor.
import { and, setup, transition, type SnapshotFrom } from 'xstate';

export type ReplicationKind = 'dr' | 'performance';

/** A role as the world stores it. `secondary.demoted` is a former primary with no primary to follow. */
export type RoleValue = 'disabled' | 'primary' | 'secondary.following' | 'secondary.demoted' | 'secondary.unassigned';

/** The mode the status record reports for a role. */
export function modeOf(role: RoleValue): 'disabled' | 'primary' | 'secondary' {
  return role.startsWith('secondary') ? 'secondary' : (role as 'disabled' | 'primary');
}

/** Requests that change a role. The handler states the facts it checked; the guards decide. */
export type RoleEvent =
  | { type: 'primary.enable' }
  | { type: 'primary.demote' }
  | { type: 'primary.disable' }
  | { type: 'secondary.enable'; activationTokenValid: boolean }
  | { type: 'secondary.promote'; operationTokenValid: boolean; force: boolean; safetyChecksPass: boolean }
  | { type: 'secondary.disable'; operationTokenValid: boolean }
  | { type: 'secondary.update-primary'; operationTokenValid: boolean; token?: string; addresses?: string[] };

export const replicationRoleMachine = setup({
  types: {
    context: {} as { kind: ReplicationKind },
    input: {} as { kind: ReplicationKind },
    events: {} as RoleEvent,
  },
  guards: {
    /** Secondary-side DR calls need a valid DR operation token; performance calls never do. */
    hasOperationTokenIfDr: ({ context, event }) =>
      context.kind === 'performance' || ('operationTokenValid' in event && event.operationTokenValid),
    hasValidActivationToken: ({ event }) => event.type === 'secondary.enable' && event.activationTokenValid,
    safetyChecksPassOrForced: ({ event }) => event.type === 'secondary.promote' && (event.force || event.safetyChecksPass),
    /** Rule: update-primary takes a token or addresses, never both (and one of them). */
    tokenOrAddressesNotBoth: ({ event }) =>
      event.type === 'secondary.update-primary' && (event.token === undefined) !== (event.addresses === undefined),
    givesNonEmptyToken: ({ event }) => event.type === 'secondary.update-primary' && typeof event.token === 'string' && event.token !== '',
    givesEmptyToken: ({ event }) => event.type === 'secondary.update-primary' && event.token === '',
    givesAddresses: ({ event }) => event.type === 'secondary.update-primary' && event.addresses !== undefined,
  },
}).createMachine({
  id: 'replicationRole',
  context: ({ input }) => ({ kind: input.kind }),
  initial: 'disabled',
  states: {
    disabled: {
      meta: { label: 'disabled' },
      on: {
        'primary.enable': { target: 'primary' },
        'secondary.enable': { guard: 'hasValidActivationToken', target: 'secondary.following' },
      },
    },
    primary: {
      meta: { label: 'primary' },
      on: {
        // Keeps its cluster id and does not connect anywhere until update-primary.
        'primary.demote': { target: 'secondary.demoted' },
        'primary.disable': { target: 'disabled' },
      },
    },
    secondary: {
      initial: 'following',
      // A secondary must be promoted, not enabled as a primary: no `primary.enable` here.
      on: {
        'secondary.promote': {
          guard: and(['hasOperationTokenIfDr', 'safetyChecksPassOrForced']),
          target: 'primary',
        },
        'secondary.disable': { guard: 'hasOperationTokenIfDr', target: 'disabled' },
      },
      states: {
        /** Follows a primary (connected or trying to). */
        following: {
          meta: { label: 'secondary' },
          on: {
            'secondary.update-primary': [
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesEmptyToken']), target: 'unassigned' },
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesAddresses']), target: 'following' },
            ],
          },
        },
        /** A newly demoted former primary: it must be given a token; addresses are refused (rule 3). */
        demoted: {
          meta: { label: 'secondary (demoted, no primary)' },
          on: {
            'secondary.update-primary': [
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesEmptyToken']), target: 'unassigned' },
            ],
          },
        },
        /**
         * Told to forget its primary (update-primary with an empty token). It no longer holds the
         * credentials an address update reuses, so like a newly demoted cluster it needs a token.
         */
        unassigned: {
          meta: { label: 'secondary (no primary)' },
          on: {
            'secondary.update-primary': [
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'tokenOrAddressesNotBoth', 'givesEmptyToken']), target: 'unassigned' },
            ],
          },
        },
      },
    },
  },
});

type RoleSnapshot = SnapshotFrom<typeof replicationRoleMachine>;

const snapshots = new Map<string, RoleSnapshot>();

/** The machine's snapshot for a stored role, resolved once and cached (snapshots are immutable). */
function snapshotOf(kind: ReplicationKind, role: RoleValue): RoleSnapshot {
  const key = kind + ':' + role;
  let snap = snapshots.get(key);
  if (!snap) {
    const [top, sub] = role.split('.');
    snap = replicationRoleMachine.resolveState({ value: sub ? { [top]: sub } : top, context: { kind } });
    snapshots.set(key, snap);
  }
  return snap;
}

function roleOfSnapshot(snap: RoleSnapshot): RoleValue {
  const v = snap.value as string | Record<string, string>;
  if (typeof v === 'string') return v as RoleValue;
  const [top] = Object.keys(v);
  return `${top}.${v[top]}` as RoleValue;
}

/**
 * The facts of an event that the guards read, as a key. Outcomes depend on nothing else, so each
 * combination is asked of the machine once and remembered: xstate's pure transition costs tens of
 * microseconds, and property runs make millions of these calls.
 */
function factsKey(kind: ReplicationKind, role: RoleValue, e: RoleEvent): string {
  const f = e as Partial<Record<string, unknown>>;
  const token = f.token === undefined ? '-' : f.token === '' ? 'empty' : 'given';
  return `${kind}|${role}|${e.type}|${f.activationTokenValid}|${f.operationTokenValid}|${f.force}|${f.safetyChecksPass}|${token}|${f.addresses !== undefined}`;
}

const outcomes = new Map<string, RoleValue | null>();

/** The role after the request, or null when the role table refuses it. */
export function stepRole(kind: ReplicationKind, role: RoleValue, event: RoleEvent): RoleValue | null {
  const key = factsKey(kind, role, event);
  let next = outcomes.get(key);
  if (next === undefined) {
    const snap = snapshotOf(kind, role);
    next = snap.can(event) ? roleOfSnapshot(transition(replicationRoleMachine, snap, event)[0]) : null;
    outcomes.set(key, next);
  }
  return next;
}

/** The role a state node of the machine stands for (a compound node: its initial child). */
function roleOfNode(node: { path: string[]; type: string; initial?: { target: readonly { path: string[] }[] } }): string {
  const path = node.type === 'compound' && node.initial ? node.initial.target[0].path : node.path;
  return path.join('.');
}

/**
 * Whether the machine's table has a transition for requests of `type` from `from` to `to` (under some
 * facts): read from the machine's own state nodes, not a copy. Replay uses it to refuse a history
 * whose recorded role move is not a row of the table (the handler asked `stepRole`; a live world
 * never records anything else).
 */
export function isRoleMove(from: RoleValue, type: RoleEvent['type'], to: RoleValue): boolean {
  // Every role event applied asks (replay and the live world alike): the answer is the machine's,
  // read once per combination.
  const key = JSON.stringify([from, type, to]);
  let known = roleMoves.get(key);
  if (known === undefined) roleMoves.set(key, (known = isRowOfTable(from, type, to)));
  return known;
}

const roleMoves = new Map<string, boolean>();

function isRowOfTable(from: RoleValue, type: RoleEvent['type'], to: RoleValue): boolean {
  for (let node: (typeof replicationRoleMachine)['root'] | undefined = replicationRoleMachine.getStateNodeById(`replicationRole.${from}`); node; node = node.parent) {
    const transitions = node.on[type] ?? [];
    // A transition with no target stays where it is.
    if (transitions.some((t) => (t.target ?? [node]).some((n) => roleOfNode(n) === to))) return true;
  }
  return false;
}

/** Whether the role table allows this request from this role. */
export function canRole(kind: ReplicationKind, role: RoleValue, event: RoleEvent): boolean {
  return stepRole(kind, role, event) !== null;
}

/** How people read a role (narration, the report): the `label` of the machine's state node for it. */
export function roleLabel(role: RoleValue): string {
  const node = replicationRoleMachine.getStateNodeById(`replicationRole.${role}`);
  return (node.meta as { label?: string } | undefined)?.label ?? role;
}
