// How the events of policies, roles and tokens change the world state. Policies and roles are
// replicated configuration: their changes advance the WAL (advancingWal), so secondaries receive
// them. A service token is local storage, which does not advance the replicated WAL; a batch token
// changes nothing.
import type { SimDraft } from '../core/draft.js';
import { advancingWal } from '../sync/replicated-config.js';
import type { AclPolicyDeleted, AclPolicyWritten, TokenCreated, TokenRenewed, TokenRevoked, TokenRoleDeleted, TokenRoleWritten } from './events.js';

const replicated = advancingWal({
  'acl-policy-written': (d: SimDraft, e: AclPolicyWritten) => {
    const s = d.clusters[e.cluster].storage;
    if (!e.namespace) s.policies = { ...s.policies, [e.policy.name]: e.policy };
    else s.namespacePolicies = { ...s.namespacePolicies, [e.namespace]: { ...s.namespacePolicies?.[e.namespace], [e.policy.name]: e.policy } };
  },
  'acl-policy-deleted': (d: SimDraft, e: AclPolicyDeleted) => {
    const s = d.clusters[e.cluster].storage;
    if (!e.namespace) {
      if (s.policies) delete s.policies[e.name];
    } else if (s.namespacePolicies?.[e.namespace]) delete s.namespacePolicies[e.namespace][e.name];
  },
  'token-role-written': (d: SimDraft, e: TokenRoleWritten) => {
    const s = d.clusters[e.cluster].storage;
    s.tokenRoles = { ...s.tokenRoles, [e.role.name]: e.role };
  },
  'token-role-deleted': (d: SimDraft, e: TokenRoleDeleted) => {
    const s = d.clusters[e.cluster].storage;
    if (s.tokenRoles) delete s.tokenRoles[e.name];
  },
});

export const authReducers = {
  ...replicated,
  'token-created': (d: SimDraft, e: TokenCreated) => {
    if (e.token.type === 'batch') return;
    d.clusters[e.cluster].storage.tokens[e.token.id] = e.token;
  },
  // Tokens are local storage, like their creation: no WAL moves.
  'token-renewed': (d: SimDraft, e: TokenRenewed) => {
    const t = d.clusters[e.cluster].storage.tokens[e.id];
    d.clusters[e.cluster].storage.tokens[e.id] = { ...t, expiresAt: e.expiresAt };
  },
  'token-revoked': (d: SimDraft, e: TokenRevoked) => {
    const tokens = d.clusters[e.cluster].storage.tokens;
    for (const id of e.ids) delete tokens[id];
    for (const id of e.orphaned ?? []) {
      const { parent: _, ...rest } = tokens[id];
      tokens[id] = { ...rest, orphan: true };
    }
  },
};
