// sys/policies/acl (and the older sys/policy): list, read, write and delete named ACL policies. A
// policy is replicated configuration: on a performance secondary a write lands on its primary
// (configurationLanding), as the service forwards it.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { readPolicy } from '../../core/policy-text.js';
import { aclPoliciesIn } from '../../core/policy.js';
import { strictPolicyAttributes } from '../../core/version-rules.js';
import { errors, reply } from '../../../kernel/http/http.js';
import { hasOwn } from '../../../kernel/own.js';
import { authRefusals as R } from '../refusals.js';

/** The namespace a policy event names: none for the root namespace, whose events keep their form. */
const inNamespace = (ctx: RequestContext): { namespace?: string } => (ctx.namespace === '' ? {} : { namespace: ctx.namespace });

/** The built-in policies every cluster has (not stored). */
const BUILT_IN = ['default', 'root'];

export function policyNames(ctx: RequestContext): string[] {
  return [...new Set([...BUILT_IN, ...Object.keys(aclPoliciesIn(ctx.cluster.storage, ctx.namespace) ?? {})])].sort();
}

export function list(ctx: RequestContext): Outcome {
  const keys = policyNames(ctx);
  return reply.data({ keys, policies: keys });
}

export function read(ctx: RequestContext): Outcome {
  const name = ctx.params.name.toLowerCase();
  if (name === 'default') return reply.data({ name, policy: DEFAULT_TEXT, rules: DEFAULT_TEXT });
  const p = aclPoliciesIn(ctx.cluster.storage, ctx.namespace);
  if (!p || !hasOwn(p, name)) return errors.notFound();
  return reply.data({ name, policy: p[name].text, rules: p[name].text });
}

export const writeFields = { policy: { type: 'string', default: '' }, rules: { type: 'string', default: '' } } as const;

export function write(ctx: RequestContext<typeof writeFields>): Outcome {
  // Policy names are case-insensitive on the service: stored lower-case.
  const name = ctx.params.name.toLowerCase();
  if (name === 'root' || name === 'default') return R.builtinPolicy('update', name);
  const text = ctx.fields.policy !== '' ? ctx.fields.policy : ctx.fields.rules;
  if (text.trim() === '') return R.policyMissing();
  const read = readPolicy(text, strictPolicyAttributes(ctx.cluster.version));
  if (!read.ok) return R.policyUnreadable(read.error);
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in l) return l.refuse;
  return { events: [{ type: 'acl-policy-written', at: ctx.now, cluster: l.cluster, policy: { name, text, rules: read.rules }, ...inNamespace(ctx) }], reply: () => reply.empty() };
}

export function remove(ctx: RequestContext): Outcome {
  const name = ctx.params.name.toLowerCase();
  if (name === 'root' || name === 'default') return R.builtinPolicy('delete', name);
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in l) return l.refuse;
  const p = aclPoliciesIn(ctx.state.clusters.named(l.cluster).storage, ctx.namespace);
  // Deleting a policy that is not there succeeds and changes nothing, as on the service.
  if (!p || !hasOwn(p, name)) return reply.empty();
  return { events: [{ type: 'acl-policy-deleted', at: ctx.now, cluster: l.cluster, name, ...inNamespace(ctx) }], reply: () => reply.empty() };
}

/** The `default` policy's text as a read shows it (the rules policy.ts DEFAULT_POLICY applies). */
const DEFAULT_TEXT = `# Allow tokens to look up their own properties
path "auth/token/lookup-self" {
    capabilities = ["read"]
}

# Allow tokens to renew themselves
path "auth/token/renew-self" {
    capabilities = ["update"]
}

# Allow tokens to revoke themselves
path "auth/token/revoke-self" {
    capabilities = ["update"]
}

# Allow a token to look up its own capabilities on a path
path "sys/capabilities-self" {
    capabilities = ["update"]
}

# Allow a token to wrap arbitrary values in a response-wrapping token
path "sys/wrapping/wrap" {
    capabilities = ["update"]
}

# Allow a token to look up the creation time and TTL of a given
# response-wrapping token
path "sys/wrapping/lookup" {
    capabilities = ["update"]
}

# Allow a token to unwrap a response-wrapping token
path "sys/wrapping/unwrap" {
    capabilities = ["update"]
}
`;
