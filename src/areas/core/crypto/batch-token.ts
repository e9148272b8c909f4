// Batch tokens: "encrypted blobs that carry enough information … [and] require no storage". The
// service encrypts them with its keyring, so any cluster holding that keyring (its DR secondaries, a
// demoted former primary, a promoted secondary) can open one and check it, and nothing about the
// token is replicated: validity comes from the TTL inside it. replsim's blob is its own (the
// service's format is not public): `hvb.` + base64url(IV ‖ AES-256-GCM tag ‖ ciphertext) of the
// token's claims as JSON, under a key derived from the keyring's root key, the IV drawn from the
// world's seeded generator so a replay rebuilds the same token.
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import type { Rng } from '../../../kernel/prng.js';

/** What a batch token carries. */
export interface BatchClaims {
  /** Policy names (resolved on the cluster that checks the token). */
  policies: string[];
  namespace: string;
  /** Issued and expiry times (virtual ms). */
  issuedAt: number;
  expiresAt: number;
  orphan: boolean;
  /** The token role it was created against, or "". */
  role: string;
  displayName: string;
  meta: Record<string, string>;
}

export const BATCH_PREFIX = 'hvb.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(rootKeyHex: string): Buffer {
  return createHash('sha256').update('replsim batch token v1\0').update(rootKeyHex).digest();
}

/** A batch token carrying `claims`, sealed under the keyring whose root key is `rootKeyHex`. */
export function sealBatchToken(claims: BatchClaims, rootKeyHex: string, rng: Rng): string {
  const iv = Buffer.from(rng.bytes(IV_BYTES));
  const cipher = createCipheriv('aes-256-gcm', keyOf(rootKeyHex), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()]);
  return BATCH_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The claims of a batch token sealed under this keyring, or null (not a batch token, another keyring, altered). */
export function openBatchToken(token: string, rootKeyHex: string): BatchClaims | null {
  if (!token.startsWith(BATCH_PREFIX)) return null;
  const raw = Buffer.from(token.slice(BATCH_PREFIX.length), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(rootKeyHex), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    const claims = JSON.parse(text) as BatchClaims;
    return claims !== null && typeof claims === 'object' && Array.isArray(claims.policies) && typeof claims.expiresAt === 'number' ? claims : null;
  } catch {
    return null;
  }
}
