// POST <kind>/primary/secondary-token (sudo): an activation token for secondary `id`. Wrapped by
// default (`data: null`, the JWT in `wrap_info.token`). With `secondary_public_key`, the
// credentials are sealed to that key and returned in `data` (simulator field names, the service's
// are not public): `{ id, token, ttl }`, `token` being what secondary/enable takes.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { rfc3339 } from '../../../kernel/clock.js';
import { reply } from '../../../kernel/http/http.js';
import { own } from '../../../kernel/own.js';
import { sealedActivationToken, wrappedActivationToken } from '../activation.js';
import type { ReplicationEvent } from '../events.js';
import { SECONDARY_PUBLIC_KEY_SINCE, versionAtLeast } from '../versions.js';
import { prefix, replicationErrors } from './common.js';

export const fields = {
  id: { type: 'string', required: 'missing id' },
  ttl: { type: 'duration', default: 30 * 60_000 },
  secondary_public_key: { type: 'string', default: '' },
} as const;

/** Whether a base64 text is a raw 32-byte X25519 public key, as generate-public-key returns. */
function isPublicKey(b64: string): boolean {
  const raw = Buffer.from(b64, 'base64');
  return raw.length === 32 && raw.toString('base64') === b64;
}

export function decide(kind: ReplicationKind) {
  const err = replicationErrors(kind);
  return (ctx: RequestContext<typeof fields>): Outcome => {
    const c = ctx.cluster;
    const r = c.replication[kind];
    if (r.role !== 'primary') return err.notPrimary(c);
    const id = ctx.fields.id.trim();
    if (id === '') return err.missingId();
    const existing = own(r.issued, id);
    if (existing && !existing.revoked) return err.duplicateId(id);
    const ttlMs = ctx.fields.ttl;
    if (!(ttlMs >= 1000)) return err.badTtl();
    const ttl = Math.floor(ttlMs / 1000);
    const publicKey = ctx.fields.secondary_public_key.trim();
    if (publicKey !== '') {
      if (!versionAtLeast(c.version, SECONDARY_PUBLIC_KEY_SINCE)) return err.publicKeyTooOld(c.version);
      if (!isPublicKey(publicKey)) return err.badPublicKey();
    }
    const jti = ctx.rng.uuid();
    const event: ReplicationEvent = {
      type: 'replication-secondary-token-issued',
      at: ctx.now,
      kind,
      cluster: c.name,
      id,
      jti,
      expiresAt: ctx.now + ttl * 1000,
      publicKey: publicKey !== '',
    };
    if (publicKey !== '') {
      const token = sealedActivationToken(c, kind, id, jti, ctx.now, ttl * 1000, publicKey, ctx.rng);
      return { events: [event], reply: () => reply.data({ id, token, ttl }) };
    }
    const accessor = ctx.rng.uuid();
    const token = wrappedActivationToken(c, jti, ctx.now, ttl * 1000);
    const wrapInfo = { token, accessor, ttl, creation_time: rfc3339(ctx.now), creation_path: `${prefix(kind)}/primary/secondary-token` };
    return { events: [event], reply: () => reply.data(null, { wrapInfo }) };
  };
}
