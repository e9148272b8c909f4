// The replication role of one cluster, for one kind of replication (DR or performance): the spec's
// role table. The same machine serves both kinds; the kind decides only whether the secondary-side
// calls need a DR operation token. A cluster holds two of these, one per kind.
//
// The world keeps roles as plain values in its state and uses this machine as a pure transition
// function (`askRole`, models/ask.ts), so that forks of a world share state and replay needs no actor.
import { and, setup } from 'xstate';
import { ask, targets, type Answer } from './ask.js';
export { NO_ROW } from './ask.js';

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
    /** A.1: update-primary takes a token or addresses, never both (an empty token beside addresses is no token). */
    notBothTokenAndAddresses: ({ event }) => event.type === 'secondary.update-primary' && !(nonEmpty(event.token) && event.addresses !== undefined),
    /** …and one of them: `token` is required, though it may be empty (A.4). */
    tokenOrAddresses: ({ event }) => event.type === 'secondary.update-primary' && (event.token !== undefined || event.addresses !== undefined),
    givesNonEmptyToken: ({ event }) => event.type === 'secondary.update-primary' && event.addresses === undefined && nonEmpty(event.token),
    givesEmptyToken: ({ event }) => event.type === 'secondary.update-primary' && event.addresses === undefined && event.token === '',
    givesAddresses: ({ event }) => event.type === 'secondary.update-primary' && event.addresses !== undefined,
    /** A.3: a newly demoted secondary must be given a token; addresses are refused. */
    tokenAfterDemotion: ({ event }) => event.type === 'secondary.update-primary' && event.addresses === undefined,
    /** A secondary told to forget its primary holds no credentials for an address update: a token it must be. */
    tokenWithoutPrimary: ({ event }) => event.type === 'secondary.update-primary' && event.addresses === undefined,
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
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'givesEmptyToken']), target: 'unassigned' },
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'givesAddresses']), target: 'following' },
            ],
          },
        },
        /** A newly demoted former primary: it must be given a token; addresses are refused (rule 3). */
        demoted: {
          meta: { label: 'secondary (demoted, no primary)' },
          on: {
            'secondary.update-primary': [
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'tokenAfterDemotion', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'tokenAfterDemotion', 'givesEmptyToken']), target: 'unassigned' },
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
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'tokenWithoutPrimary', 'givesNonEmptyToken']), target: 'following' },
              { guard: and(['hasOperationTokenIfDr', 'notBothTokenAndAddresses', 'tokenOrAddresses', 'tokenWithoutPrimary', 'givesEmptyToken']), target: 'unassigned' },
            ],
          },
        },
      },
    },
  },
});

function nonEmpty(token: string | undefined): boolean {
  return typeof token === 'string' && token !== '';
}

/**
 * The role table's answer to a request: the role it moves to, or the guard that refused
 * (`NO_ROW` when the role has no row for the request at all). Handlers map the refusal to theirs.
 */
export function askRole(kind: ReplicationKind, role: RoleValue, event: RoleEvent): Answer {
  return ask(replicationRoleMachine, role, CONTEXT[kind], event);
}

const CONTEXT: Record<ReplicationKind, { kind: ReplicationKind }> = { dr: { kind: 'dr' }, performance: { kind: 'performance' } };

/** The role after the request, or null when the role table refuses it. */
export function stepRole(kind: ReplicationKind, role: RoleValue, event: RoleEvent): RoleValue | null {
  const answer = askRole(kind, role, event);
  return 'next' in answer ? (answer.next as RoleValue) : null;
}

/** The role a state node of the machine stands for (a compound node: its initial child). */
/**
 * Whether the machine's table has a transition for requests of `type` from `from` to `to` (under some
 * facts): read from the machine's own rows (models/ask.ts `targets`), not a copy. Replay uses it to
 * refuse a history whose recorded role move is not a row of the table (the handler asked `askRole`;
 * a live world never records anything else).
 */
export function isRoleMove(from: RoleValue, type: RoleEvent['type'], to: RoleValue): boolean {
  return targets(replicationRoleMachine, from, type).includes(to);
}

/** How people read a role (narration, the report): the `label` of the machine's state node for it. */
export function roleLabel(role: RoleValue): string {
  const node = replicationRoleMachine.getStateNodeById(`replicationRole.${role}`);
  return (node.meta as { label?: string } | undefined)?.label ?? role;
}
