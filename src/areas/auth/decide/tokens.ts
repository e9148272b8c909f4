// auth/token/create, create-orphan and create/:role_name (service and batch tokens), and
// auth/token/lookup. What the service's token store does, as far as a simulated token carries it:
// policies (a child gets at most its parent's, or a role's allowed ones, and `default` unless told
// otherwise), type, TTL, orphan, renewable, number of uses, period, metadata. A batch token cannot
// be periodic, root, renewed or revoked, and is stored nowhere (crypto/batch-token.ts).
import { sealBatchToken } from '../../core/crypto/batch-token.js';
import { newServiceToken } from '../../core/tokens.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { TokenEntry, TokenRole } from '../../core/state.js';
import { resolveToken } from '../../core/tokens.js';
import { epochSeconds, rfc3339 } from '../../../kernel/clock.js';
import { errors, reply } from '../../../kernel/http/http.js';
import { hasOwn } from '../../../kernel/own.js';
import { authRefusals as R } from '../refusals.js';

/** The service's default lease TTL (system default 768h), given to a non-root token created without a ttl. */
const DEFAULT_TTL_S = 768 * 3600;

export const createFields = {
  policies: { type: 'strings', default: [] },
  ttl: { type: 'duration', default: 0 },
  lease: { type: 'duration', default: 0 },
  explicit_max_ttl: { type: 'duration', default: 0 },
  period: { type: 'duration', default: 0 },
  type: { type: 'string', default: '' },
  no_parent: { type: 'bool', default: false },
  no_default_policy: { type: 'bool', default: false },
  renewable: { type: 'bool', default: true },
  num_uses: { type: 'int', default: 0 },
  display_name: { type: 'string', default: '' },
  meta: { type: 'map', default: {} },
  entity_alias: { type: 'string', default: '' },
  id: { type: 'string', default: '' },
} as const;

type CreateCtx = RequestContext<typeof createFields>;

const unique = (xs: string[]) => [...new Set(xs.map((x) => x.trim().toLowerCase()).filter((x) => x !== ''))].sort();

/** The policies a token is given (before `default` is added), or the refusal. */
function policiesFor(ctx: CreateCtx, parent: TokenEntry, role: TokenRole | null): string[] | Outcome {
  const asked = unique(ctx.fields.policies);
  const parentPolicies = parent.policy === 'root' ? ['root'] : unique(parent.policies ?? []);
  if (role) {
    for (const p of asked) if (role.disallowed_policies.includes(p)) return R.disallowedByRole(p);
    if (asked.length === 0) return role.allowed_policies.length ? unique(role.allowed_policies) : parentPolicies.filter((p) => !role.disallowed_policies.includes(p));
    const allowed = unique(role.allowed_policies);
    if (allowed.length && asked.some((p) => p !== 'default' && !allowed.includes(p))) return R.notSubsetOfRole(asked, allowed);
    // A role with no allowed list lets a child have what its parent has.
    if (!allowed.length && !parentPolicies.includes('root') && asked.some((p) => p !== 'default' && !parentPolicies.includes(p))) return R.notSubsetOfParent();
    return asked;
  }
  if (asked.length === 0) return parentPolicies;
  if (!parentPolicies.includes('root') && asked.some((p) => p !== 'default' && !parentPolicies.includes(p))) return R.notSubsetOfParent();
  return asked;
}

function create(ctx: CreateCtx, role: TokenRole | null, orphanPath: boolean): Outcome {
  const f = ctx.fields;
  const parent = ctx.token;
  if (!parent) return errors.unknownToken();
  if (parent.type === 'batch') return R.batchNotOrphanFromBatch();
  if (f.id !== '') return R.customIdNotAllowed();
  const asked = f.type.trim().toLowerCase();
  if (asked !== '' && asked !== 'service' && asked !== 'batch') return R.badTokenType(f.type);
  const roleType = role?.token_type ?? 'default-service';
  const type: 'service' | 'batch' = roleType === 'service' || roleType === 'batch' ? roleType : asked !== '' ? (asked as 'service' | 'batch') : roleType === 'default-batch' ? 'batch' : 'service';

  const chosen = policiesFor(ctx, parent, role);
  if (!Array.isArray(chosen)) return chosen;
  const root = chosen.includes('root');
  if (root && type === 'batch') return R.batchRoot();
  const noDefault = f.no_default_policy || role?.token_no_default_policy === true;
  const policies = root ? ['root'] : unique(noDefault ? chosen : ['default', ...chosen]);

  const period = Math.round(f.period / 1000) || role?.token_period || 0;
  if (type === 'batch' && period > 0) return R.batchPeriodic();
  const explicitMax = Math.round(f.explicit_max_ttl / 1000) || role?.token_explicit_max_ttl || 0;
  let ttl = Math.round((f.ttl || f.lease) / 1000);
  if (ttl === 0) ttl = period > 0 ? period : root && parent.policy === 'root' ? 0 : DEFAULT_TTL_S;
  if (explicitMax > 0 && (ttl === 0 || ttl > explicitMax)) ttl = explicitMax;
  const orphan = orphanPath || f.no_parent || role?.orphan === true;
  const renewable = type === 'batch' ? false : f.renewable && (role ? role.renewable : true);
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.meta)) Object.defineProperty(meta, k, { value: String(v), enumerable: true, writable: true, configurable: true });
  const displayName = f.display_name === '' ? 'token' : `token-${f.display_name}`;
  const expiresAt = ttl > 0 ? ctx.now + ttl * 1000 : null;

  // Every check passed: draw the token now.
  let token: TokenEntry;
  if (type === 'batch') {
    const claims = { policies, namespace: ctx.namespace, issuedAt: ctx.now, expiresAt: expiresAt ?? Number.MAX_SAFE_INTEGER, orphan, role: role?.name ?? '', displayName, meta };
    const id = sealBatchToken(claims, ctx.cluster.storage.keyring.rootKeyHex, ctx.rng);
    token = { id, accessor: '', name: displayName, namespace: ctx.namespace, policy: {}, policies, type, expiresAt, issuedAt: ctx.now, creationTtl: ttl, orphan, renewable, role: role?.name ?? '', displayName, meta, numUses: f.num_uses };
  } else {
    const id = newServiceToken(ctx.rng);
    const accessor = ctx.rng.base62(24);
    token = { id, accessor, name: displayName, namespace: ctx.namespace, policy: root ? 'root' : {}, policies, type, expiresAt, issuedAt: ctx.now, creationTtl: ttl, orphan, renewable, role: role?.name ?? '', displayName, meta, numUses: f.num_uses, explicitMaxTtl: explicitMax, period, ...(orphan ? {} : { parent: parent.id }) };
  }
  const auth = authBlock(token, ttl);
  return { events: [{ type: 'token-created', at: ctx.now, cluster: ctx.cluster.name, token }], reply: () => reply.data(null, { auth, mountType: 'token' }) };
}

/** The `auth` block of an answer that hands out (or renews) a token, `ttl` seconds left. */
export function authBlock(token: TokenEntry, ttl: number) {
  const policies = token.policies ?? [];
  const meta = token.meta ?? {};
  return {
    client_token: token.id,
    accessor: token.accessor,
    policies,
    token_policies: policies,
    metadata: Object.keys(meta).length ? meta : null,
    lease_duration: ttl,
    renewable: token.renewable ?? false,
    entity_id: '',
    token_type: token.type ?? 'service',
    orphan: token.orphan ?? true,
    mfa_requirement: null,
    num_uses: token.numUses ?? 0,
  };
}

export const createToken = (ctx: CreateCtx): Outcome => create(ctx, null, false);
export const createOrphan = (ctx: CreateCtx): Outcome => create(ctx, null, true);

export function createAgainstRole(ctx: CreateCtx): Outcome {
  const roles = ctx.cluster.storage.tokenRoles;
  if (!roles || !hasOwn(roles, ctx.params.role_name)) return R.unknownRole(ctx.params.role_name);
  return create(ctx, roles[ctx.params.role_name], false);
}

/** What a lookup shows of a token (lookup and lookup-self answer alike). */
export function tokenView(t: TokenEntry, now: number) {
  const root = t.policy === 'root';
  const policies = t.policies ?? (root ? ['root'] : ['default', t.name]);
  const expires = t.expiresAt ?? null;
  return {
    accessor: t.accessor,
    creation_time: epochSeconds(t.issuedAt ?? 0),
    creation_ttl: t.creationTtl ?? 0,
    display_name: t.displayName ?? (root ? 'root' : `token-${t.name}`),
    entity_id: '',
    expire_time: expires === null ? null : rfc3339(expires),
    explicit_max_ttl: t.explicitMaxTtl ?? 0,
    id: t.id,
    issue_time: rfc3339(t.issuedAt ?? 0),
    meta: t.meta && Object.keys(t.meta).length ? t.meta : null,
    namespace_path: t.namespace,
    num_uses: t.numUses ?? 0,
    orphan: t.orphan ?? true,
    path: t.role ? `auth/token/create/${t.role}` : root && t.policies === undefined ? 'auth/token/root' : 'auth/token/create',
    period: t.period || null,
    policies,
    renewable: t.renewable ?? false,
    role: t.role ?? '',
    ttl: expires === null ? 0 : Math.max(0, Math.round((expires - now) / 1000)),
    type: t.type ?? 'service',
  };
}

export const lookupFields = { token: { type: 'string', default: '' } } as const;

export function lookup(ctx: RequestContext<typeof lookupFields>): Outcome {
  const sent = ctx.fields.token !== '' ? ctx.fields.token : (ctx.query.token ?? '');
  if (sent === '') return R.noTokenGiven();
  const t = resolveToken(ctx.cluster, sent, ctx.now);
  if (!t) return R.badToken();
  return reply.data(tokenView(t, ctx.now), { mountType: 'token' });
}

/** auth/token/lookup-self: every token may look itself up (the `default` policy grants it); an unknown token may not. */
export function lookupSelf(ctx: RequestContext): Outcome {
  const t = ctx.token;
  if (!t) return errors.unknownToken();
  return reply.data(tokenView(t, ctx.now), { mountType: 'token' });
}
