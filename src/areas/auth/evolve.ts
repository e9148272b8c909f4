// How the events of policies, roles and tokens change the world state. Policies and roles are
// replicated configuration: their changes advance the WAL (onReplicatedCluster), so secondaries
// receive them. A service token is local storage, which does not advance the replicated WAL; a
// batch token changes nothing.
import { onCluster, onReplicatedCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import type { AclPolicyDeleted, AclPolicyWritten, TokenCreated, TokenRenewed, TokenRevoked, TokenRoleDeleted, TokenRoleWritten } from './events.js';

export const authReducers = {
  'acl-policy-written': onReplicatedCluster((c, e: AclPolicyWritten) => {
    const s = c.storage;
    if (!e.namespace) s.policies = { ...s.policies, [e.policy.name]: e.policy };
    else s.namespacePolicies = { ...s.namespacePolicies, [e.namespace]: { ...s.namespacePolicies?.[e.namespace], [e.policy.name]: e.policy } };
  }),
  'acl-policy-deleted': onReplicatedCluster((c, e: AclPolicyDeleted) => {
    const s = c.storage;
    if (!e.namespace) {
      if (s.policies) delete s.policies[e.name];
    } else if (s.namespacePolicies?.[e.namespace]) delete s.namespacePolicies[e.namespace][e.name];
  }),
  'token-role-written': onReplicatedCluster((c, e: TokenRoleWritten) => {
    c.storage.tokenRoles = { ...c.storage.tokenRoles, [e.role.name]: e.role };
  }),
  'token-role-deleted': onReplicatedCluster((c, e: TokenRoleDeleted) => {
    if (c.storage.tokenRoles) delete c.storage.tokenRoles[e.name];
  }),
  'token-created': onCluster((c, e: TokenCreated) => {
    // A batch token has no row in the token store: nothing changes.
    if (e.token.type === 'batch') return;
    c.storage.tokens[e.token.id] = e.token;
  }),
  // Tokens are local storage, like their creation: no WAL moves.
  'token-renewed': onCluster((c, e: TokenRenewed) => {
    c.storage.tokens[e.id] = { ...c.storage.tokens[e.id], expiresAt: e.expiresAt };
  }),
  'token-revoked': onCluster((c, e: TokenRevoked) => {
    const tokens = c.storage.tokens;
    for (const id of e.ids) delete tokens[id];
    for (const id of e.orphaned ?? []) {
      const { parent: _, ...rest } = tokens[id];
      tokens[id] = { ...rest, orphan: true };
    }
  }),
} satisfies SimReducers;
