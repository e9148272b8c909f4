// The table of ACL policies, token roles and tokens: method and path → summary, authorisation rule,
// fields and the decision (decide/<file>.ts). Every path needs a client token with the capability
// on it (create-orphan `sudo` too). Policies and `auth/token/create` are served in every namespace
// (a token's policy names resolve in its own); roles and the other token paths in the root
// namespace only (README, Limits). None is
// open on a DR secondary, which serves no client request. PUT is taken as POST by the router.
import { routesOf, row, type AuthRule, type Route } from '../core/http/route.js';
import * as policies from './decide/policies.js';
import * as roles from './decide/roles.js';
import * as tokens from './decide/tokens.js';
import * as lifecycle from './decide/token-lifecycle.js';

const clientAuth: AuthRule = { token: 'client', rootNamespace: true };
/** Policies and tokens live in the namespace of the request (its policy names resolve there). */
const namespacedAuth: AuthRule = { token: 'client' };

const policyRows = (base: string) => [
  row('LIST', base, { summary: 'list the ACL policies', auth: namespacedAuth, decide: policies.list }),
  row('GET', base, { summary: 'list the ACL policies', auth: namespacedAuth, decide: policies.list }),
  row('GET', `${base}/:name`, { summary: 'read an ACL policy', auth: namespacedAuth, decide: policies.read }),
  row('POST', `${base}/:name`, { summary: 'write an ACL policy (HCL or JSON)', auth: namespacedAuth, fields: policies.writeFields, decide: policies.write }),
  row('DELETE', `${base}/:name`, { summary: 'delete an ACL policy', auth: namespacedAuth, decide: policies.remove }),
];

export const authRoutes: Route[] = routesOf([
  ...policyRows('sys/policies/acl'),
  // The older path of the same policies.
  ...policyRows('sys/policy'),
  row('LIST', 'auth/token/roles', { summary: 'list the token roles', auth: clientAuth, decide: roles.list }),
  row('GET', 'auth/token/roles', { summary: 'list the token roles', auth: clientAuth, decide: roles.list }),
  row('GET', 'auth/token/roles/:role_name', { summary: 'read a token role', auth: clientAuth, decide: roles.read }),
  row('POST', 'auth/token/roles/:role_name', { summary: 'write a token role', auth: clientAuth, fields: roles.writeFields, decide: roles.write }),
  row('DELETE', 'auth/token/roles/:role_name', { summary: 'delete a token role', auth: clientAuth, decide: roles.remove }),
  row('POST', 'auth/token/create', { summary: 'create a token (service or batch)', auth: namespacedAuth, fields: tokens.createFields, decide: tokens.createToken }),
  row('POST', 'auth/token/create-orphan', { summary: 'create an orphan token', auth: { ...clientAuth, sudo: true }, fields: tokens.createFields, decide: tokens.createOrphan }),
  row('POST', 'auth/token/create/:role_name', { summary: 'create a token against a role', auth: clientAuth, fields: tokens.createFields, decide: tokens.createAgainstRole }),
  row('GET', 'auth/token/lookup-self', { summary: 'look up the calling token', auth: { token: 'none' }, decide: tokens.lookupSelf }),
  row('GET', 'auth/token/lookup', { summary: 'look up a token (token in the query)', auth: clientAuth, fields: tokens.lookupFields, decide: tokens.lookup }),
  row('POST', 'auth/token/lookup', { summary: 'look up a token', auth: { ...clientAuth, capability: 'update' }, fields: tokens.lookupFields, decide: tokens.lookup }),
  row('POST', 'auth/token/lookup-accessor', { summary: 'look up a token by its accessor', auth: clientAuth, fields: lifecycle.accessorFields, decide: lifecycle.lookupAccessor }),
  // What the `default` policy grants every token: renewing and revoking itself.
  row('POST', 'auth/token/renew-self', { summary: 'renew the calling token', auth: { token: 'none' }, fields: lifecycle.renewSelfFields, decide: lifecycle.renewSelf }),
  row('POST', 'auth/token/revoke-self', { summary: 'revoke the calling token and its children', auth: { token: 'none' }, decide: lifecycle.revokeSelf }),
  row('POST', 'auth/token/renew', { summary: 'renew a token', auth: clientAuth, fields: lifecycle.renewFields, decide: lifecycle.renewToken }),
  row('POST', 'auth/token/revoke', { summary: 'revoke a token and its children', auth: clientAuth, fields: lifecycle.revokeFields, decide: lifecycle.revokeToken }),
  row('POST', 'auth/token/revoke-orphan', { summary: 'revoke a token, its children made orphans', auth: { ...clientAuth, sudo: true }, fields: lifecycle.revokeFields, decide: lifecycle.revokeOrphan }),
  row('POST', 'auth/token/revoke-accessor', { summary: 'revoke the token an accessor names, and its children', auth: clientAuth, fields: lifecycle.accessorFields, decide: lifecycle.revokeAccessor }),
]);
