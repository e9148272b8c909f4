// auth/token/renew, renew-self, revoke, revoke-self, revoke-orphan, revoke-accessor and
// lookup-accessor: the token store after creation. The token machine
// (models/token.machine.ts) decides whether a token can be renewed or revoked; a batch token can be
// neither ("batch tokens cannot be renewed" / "… revoked", the service's texts). Renewing extends a
// token's TTL from now by `increment` (or the TTL it was created with; its period, for a periodic
// token), never past its explicit max TTL counted from its creation. Revoking deletes the token and
// every token it created, down the tree (revoke-orphan: the token alone, its children made
// orphans); a token that is not there is revoked already (204, as the service's handler answers).
import { askToken, NO_ROW, type TokenValue } from '../../../../models/token.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ClusterState, TokenEntry } from '../../core/state.js';
import { expired, resolveToken } from '../../core/tokens.js';
import { errors, reply } from '../../../kernel/http/http.js';
import type { TokenRenewed, TokenRevoked } from '../events.js';
import { authRefusals as R } from '../refusals.js';
import { authBlock, tokenView } from './tokens.js';

export const renewFields = { token: { type: 'string', default: '' }, increment: { type: 'duration', default: 0 } } as const;
export const renewSelfFields = { increment: { type: 'duration', default: 0 } } as const;
export const revokeFields = { token: { type: 'string', default: '' } } as const;
export const accessorFields = { accessor: { type: 'string', default: '' } } as const;

const valueOf = (t: TokenEntry): TokenValue => (t.type === 'batch' ? 'batch' : 'service');

function renew(ctx: RequestContext, t: TokenEntry, incrementMs: number): Outcome {
  const expiring = t.expiresAt !== undefined && t.expiresAt !== null;
  const answer = askToken(valueOf(t), { type: 'renew', renewable: t.renewable === true, expiring });
  if ('refused' in answer) return answer.refused === NO_ROW ? R.batchNotRenewable() : answer.refused === 'expiring' ? R.neverExpires() : R.notRenewable();
  const ttlS = t.period ? t.period : incrementMs > 0 ? Math.round(incrementMs / 1000) : (t.creationTtl ?? 0);
  let expiresAt = ctx.now + ttlS * 1000;
  if (t.explicitMaxTtl) expiresAt = Math.min(expiresAt, (t.issuedAt ?? 0) + t.explicitMaxTtl * 1000);
  const event: TokenRenewed = { type: 'token-renewed', at: ctx.now, cluster: ctx.cluster.name, id: t.id, expiresAt };
  const left = Math.max(0, Math.round((expiresAt - ctx.now) / 1000));
  return { events: [event], reply: () => reply.data(null, { auth: authBlock({ ...t, expiresAt }, left), mountType: 'token' }) };
}

export function renewToken(ctx: RequestContext<typeof renewFields>): Outcome {
  if (ctx.fields.token === '') return R.noTokenId();
  const t = resolveToken(ctx.cluster, ctx.fields.token, ctx.now);
  return t ? renew(ctx, t, ctx.fields.increment) : R.tokenNotFound();
}

export function renewSelf(ctx: RequestContext<typeof renewSelfFields>): Outcome {
  if (!ctx.token) return errors.unknownToken();
  return renew(ctx, ctx.token, ctx.fields.increment);
}

/** The service tokens `id` created, and theirs, down the tree (stored ones, not expired or not). */
function descendants(c: ClusterState, id: string): string[] {
  const children = new Map<string, string[]>();
  for (const t of Object.values(c.storage.tokens)) if (t.parent) (children.get(t.parent) ?? children.set(t.parent, []).get(t.parent)!).push(t.id);
  const out: string[] = [];
  const todo = [...(children.get(id) ?? [])];
  while (todo.length) {
    const next = todo.pop()!;
    out.push(next);
    todo.push(...(children.get(next) ?? []));
  }
  return out.sort();
}

function revoke(ctx: RequestContext, t: TokenEntry | null, orphanChildren = false): Outcome {
  if (!t) return reply.empty();
  if ('refused' in askToken(valueOf(t), { type: 'revoke' })) return R.batchNotRevocable();
  const below = descendants(ctx.cluster, t.id);
  const direct = orphanChildren ? Object.values(ctx.cluster.storage.tokens).filter((c) => c.parent === t.id).map((c) => c.id).sort() : [];
  const event: TokenRevoked = { type: 'token-revoked', at: ctx.now, cluster: ctx.cluster.name, ids: orphanChildren ? [t.id] : [t.id, ...below], ...(direct.length ? { orphaned: direct } : {}) };
  return { events: [event], reply: () => reply.empty() };
}

/** A token named in a revoke: stored here (expired ones too: revoking them is harmless), or a batch token this cluster can open. */
function named(ctx: RequestContext, sent: string): TokenEntry | null {
  const stored = Object.prototype.hasOwnProperty.call(ctx.cluster.storage.tokens, sent) ? ctx.cluster.storage.tokens[sent] : null;
  return stored ?? resolveToken(ctx.cluster, sent, ctx.now);
}

export function revokeToken(ctx: RequestContext<typeof revokeFields>): Outcome {
  if (ctx.fields.token === '') return R.noTokenId();
  return revoke(ctx, named(ctx, ctx.fields.token));
}

export function revokeOrphan(ctx: RequestContext<typeof revokeFields>): Outcome {
  if (ctx.fields.token === '') return R.noTokenId();
  return revoke(ctx, named(ctx, ctx.fields.token), true);
}

export function revokeSelf(ctx: RequestContext): Outcome {
  if (!ctx.token) return errors.unknownToken();
  return revoke(ctx, ctx.token);
}

/** The service token an accessor names (a batch token has none), or the refusal. */
function byAccessor(ctx: RequestContext<typeof accessorFields>): TokenEntry | Outcome {
  const accessor = ctx.fields.accessor.trim();
  if (accessor === '') return R.noAccessor();
  const t = Object.values(ctx.cluster.storage.tokens).find((x) => x.accessor === accessor && !expired(x, ctx.now));
  return t ?? R.badAccessor();
}

export function revokeAccessor(ctx: RequestContext<typeof accessorFields>): Outcome {
  const t = byAccessor(ctx);
  return 'id' in t ? revoke(ctx, t) : t;
}

export function lookupAccessor(ctx: RequestContext<typeof accessorFields>): Outcome {
  const t = byAccessor(ctx);
  // The answer does not carry the token itself.
  return 'id' in t ? reply.data({ ...tokenView(t, ctx.now), id: '' }, { mountType: 'token' }) : t;
}
