// auth/token/roles: token roles (what tokens created against a role get: policies, orphan,
// renewable, token type, TTLs). Every parameter of the service's schema is accepted and stored;
// the ones a simulated token carries (policies, orphan, renewable, type, explicit max TTL, period,
// number of uses, no default policy) shape the tokens, the rest (CIDR bindings, path suffix, entity
// aliases) are stored and read back.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { TokenRole } from '../../core/state.js';
import { errors, reply } from '../../../kernel/http/http.js';
import { hasOwn } from '../../../kernel/own.js';
import { authRefusals as R } from '../refusals.js';

export const ROLE_TOKEN_TYPES = ['service', 'batch', 'default-service', 'default-batch'];

export const writeFields = {
  allowed_policies: { type: 'strings', default: [] },
  disallowed_policies: { type: 'strings', default: [] },
  allowed_policies_glob: { type: 'strings', default: [] },
  disallowed_policies_glob: { type: 'strings', default: [] },
  orphan: { type: 'bool', default: false },
  renewable: { type: 'bool', default: true },
  token_type: { type: 'string', default: 'default-service' },
  token_explicit_max_ttl: { type: 'duration', default: 0 },
  explicit_max_ttl: { type: 'duration', default: 0 },
  token_period: { type: 'duration', default: 0 },
  period: { type: 'duration', default: 0 },
  token_num_uses: { type: 'int', default: 0 },
  token_no_default_policy: { type: 'bool', default: false },
  token_bound_cidrs: { type: 'strings', default: [] },
  bound_cidrs: { type: 'strings', default: [] },
  path_suffix: { type: 'string', default: '' },
  allowed_entity_aliases: { type: 'strings', default: [] },
} as const;

const seconds = (ms: number) => Math.round(ms / 1000);

export function write(ctx: RequestContext<typeof writeFields>): Outcome {
  const f = ctx.fields;
  const type = f.token_type.trim().toLowerCase();
  if (!ROLE_TOKEN_TYPES.includes(type)) return R.badTokenType(f.token_type);
  if ((type === 'batch') && (f.token_period > 0 || f.period > 0)) return R.batchPeriodic();
  const role: TokenRole = {
    name: ctx.params.role_name,
    allowed_policies: f.allowed_policies.map((p) => p.toLowerCase()),
    disallowed_policies: f.disallowed_policies.map((p) => p.toLowerCase()),
    allowed_policies_glob: f.allowed_policies_glob,
    disallowed_policies_glob: f.disallowed_policies_glob,
    orphan: f.orphan,
    renewable: f.renewable,
    token_type: type,
    // The older names (`explicit_max_ttl`, `period`, `bound_cidrs`) set the same as the token_ ones.
    token_explicit_max_ttl: seconds(f.token_explicit_max_ttl || f.explicit_max_ttl),
    token_period: seconds(f.token_period || f.period),
    token_num_uses: f.token_num_uses,
    token_no_default_policy: f.token_no_default_policy,
    token_bound_cidrs: f.token_bound_cidrs.length ? f.token_bound_cidrs : f.bound_cidrs,
    path_suffix: f.path_suffix,
    allowed_entity_aliases: f.allowed_entity_aliases,
  };
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in l) return l.refuse;
  return { events: [{ type: 'token-role-written', at: ctx.now, cluster: l.cluster, role }], reply: () => reply.empty() };
}

export function roleView(r: TokenRole) {
  return {
    allowed_entity_aliases: r.allowed_entity_aliases,
    allowed_policies: r.allowed_policies,
    allowed_policies_glob: r.allowed_policies_glob,
    disallowed_policies: r.disallowed_policies,
    disallowed_policies_glob: r.disallowed_policies_glob,
    explicit_max_ttl: r.token_explicit_max_ttl,
    name: r.name,
    orphan: r.orphan,
    path_suffix: r.path_suffix,
    period: r.token_period,
    renewable: r.renewable,
    token_bound_cidrs: r.token_bound_cidrs,
    token_explicit_max_ttl: r.token_explicit_max_ttl,
    token_no_default_policy: r.token_no_default_policy,
    token_num_uses: r.token_num_uses,
    token_period: r.token_period,
    token_type: r.token_type,
  };
}

export function read(ctx: RequestContext): Outcome {
  const roles = ctx.cluster.storage.tokenRoles;
  if (!roles || !hasOwn(roles, ctx.params.role_name)) return errors.notFound();
  return reply.data(roleView(roles[ctx.params.role_name]), { mountType: 'token' });
}

export function list(ctx: RequestContext): Outcome {
  const keys = Object.keys(ctx.cluster.storage.tokenRoles ?? {}).sort();
  if (keys.length === 0) return errors.notFound();
  return reply.data({ keys }, { mountType: 'token' });
}

export function remove(ctx: RequestContext): Outcome {
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in l) return l.refuse;
  const roles = ctx.state.clusters.named(l.cluster).storage.tokenRoles;
  if (!roles || !hasOwn(roles, ctx.params.role_name)) return reply.empty();
  return { events: [{ type: 'token-role-deleted', at: ctx.now, cluster: l.cluster, name: ctx.params.role_name }], reply: () => reply.empty() };
}
