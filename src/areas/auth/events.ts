// The events of ACL policies, token roles and tokens (types only; reducers in evolve.ts).
import type { BaseEvent } from '../../kernel/engine.js';
import type { AclPolicy, TokenEntry, TokenRole } from '../core/state.js';

/** An ACL policy was written (`sys/policies/acl/:name`): replicated configuration. */
export interface AclPolicyWritten extends BaseEvent {
  type: 'acl-policy-written';
  cluster: string;
  policy: AclPolicy;
  /** The namespace it belongs to (`team-a/`); absent for the root namespace. */
  namespace?: string;
}

export interface AclPolicyDeleted extends BaseEvent {
  type: 'acl-policy-deleted';
  cluster: string;
  name: string;
  /** The namespace it belonged to (`team-a/`); absent for the root namespace. */
  namespace?: string;
}

/** A token role was written (`auth/token/roles/:role_name`): replicated configuration. */
export interface TokenRoleWritten extends BaseEvent {
  type: 'token-role-written';
  cluster: string;
  role: TokenRole;
}

export interface TokenRoleDeleted extends BaseEvent {
  type: 'token-role-deleted';
  cluster: string;
  name: string;
}

/**
 * A token was created (`auth/token/create…`). A service token is stored on the cluster (local
 * storage: DR secondaries receive it, performance ones do not); a batch token is stored nowhere, and
 * the event only records that it was handed out (its claims are sealed in it).
 */
export interface TokenCreated extends BaseEvent {
  type: 'token-created';
  cluster: string;
  token: TokenEntry;
}

/** A service token was renewed (`auth/token/renew…`): it now expires at `expiresAt`. */
export interface TokenRenewed extends BaseEvent {
  type: 'token-renewed';
  cluster: string;
  id: string;
  expiresAt: number;
}

/**
 * Service tokens were revoked (`auth/token/revoke…`): `ids`, the token and its descendants (none
 * with revoke-orphan, whose children become orphans: `orphaned`).
 */
export interface TokenRevoked extends BaseEvent {
  type: 'token-revoked';
  cluster: string;
  ids: string[];
  orphaned?: string[];
}

export type AuthEvent = AclPolicyWritten | AclPolicyDeleted | TokenRoleWritten | TokenRoleDeleted | TokenCreated | TokenRenewed | TokenRevoked;

// This area's events, declared to the core's union of every event (cluster/events.ts).
declare module '../core/events.js' {
  interface AreaEvents {
    auth: AuthEvent;
  }
}
