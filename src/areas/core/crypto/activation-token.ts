// Secondary activation tokens: JWTs a primary signs and a secondary presents to join. Vault signs
// them with ES512, whose signatures are random; replsim signs with Ed25519 from a seeded key, whose
// signatures are deterministic, so the same world seed gives byte-identical tokens and logs.
// jose's functions are async, while the world's request path is synchronous, so each operation also
// has a synchronous twin built on node:crypto that produces and accepts exactly the same tokens.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { memoBounded, remember } from '../../../kernel/memo.js';

/** The claims Vault puts in an activation token; `addr` is the primary's API address. */
export type ActivationClaims = { addr: string; exp: number; iat: number; jti: string; type: 'wrapping' };

export type ActivationSigningKey = { privateKey: KeyObject; publicKey: KeyObject };

export type ActivationTokenCheck =
  | { ok: true; claims: ActivationClaims }
  | { ok: false; reason: 'expired' | 'bad-signature' | 'malformed' };

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): Node has no "from seed" constructor.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const HEADER = { alg: 'EdDSA', typ: 'JWT' } as const;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const HEADER_PART = base64url(JSON.stringify(HEADER));
const MALFORMED = Object.freeze({ ok: false, reason: 'malformed' } as const);

/** The Ed25519 key pair a cluster signs activation tokens with, derived from 32 seed bytes. */
export function activationSigningKey(seedBytes: Uint8Array): ActivationSigningKey {
  if (seedBytes.length !== 32) throw new Error(`an Ed25519 seed is 32 bytes, got ${seedBytes.length}`);
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seedBytes]),
    format: 'der',
    type: 'pkcs8',
  });
  return new SigningKey(privateKey);
}

/**
 * A key pair whose public half is derived when first asked for: a token this process signed is
 * verified without it (`tokens`), so most keys never need it.
 */
class SigningKey implements ActivationSigningKey {
  #publicKey: KeyObject | undefined;
  /** The tokens signed with this key, by signing input (the explorer signs the same claims again on forked worlds). */
  readonly signed = new Map<string, string>();
  /**
   * The tokens signed with this key, with the payload as the verifier would read it: a token signed
   * here and given back unchanged carries a valid signature (Ed25519 signing is deterministic and its
   * signatures verify), so its check needs no signature verification (the most expensive step of a
   * secondary's activation) and no decoding. Bounded: the oldest are forgotten first, and a
   * forgotten token is checked in full, with the same verdict.
   */
  readonly tokens = new Map<string, SignedHere>();
  constructor(readonly privateKey: KeyObject) {}
  get publicKey(): KeyObject {
    return (this.#publicKey ??= createPublicKey(this.privateKey));
  }
}

/** A token signed here: its payload as the verifier reads it (parsed when first asked for). */
class SignedHere {
  #payload: Record<string, unknown> | null | undefined;
  constructor(private readonly payloadPart: string) {}
  get payload(): Record<string, unknown> | null {
    if (this.#payload === undefined) this.#payload = parseJsonObject(this.payloadPart);
    return this.#payload;
  }
}
const SIGNED_PER_KEY = 256;
/** Tokens kept per key for verification: an explorer forks one world's keys into thousands of branches, each signing its own. */
const TOKENS_PER_KEY = 4096;

/** Signs the claims into a compact JWT with jose. */
export async function signActivationToken(key: ActivationSigningKey, claims: ActivationClaims): Promise<string> {
  return new SignJWT(orderedClaims(claims)).setProtectedHeader({ ...HEADER }).sign(key.privateKey);
}

/** Signs the claims into the same compact JWT as signActivationToken, synchronously. */
export function signActivationTokenSync(key: ActivationSigningKey, claims: ActivationClaims): string {
  // Same key order and serialisation as jose, so both produce the same bytes.
  const payloadPart = base64url(JSON.stringify(orderedClaims(claims)));
  const signingInput = `${HEADER_PART}.${payloadPart}`;
  const own = key instanceof SigningKey ? key : null;
  const again = own?.signed.get(signingInput);
  if (again !== undefined) return again;
  const signature = sign(null, Buffer.from(signingInput), key.privateKey);
  const jwt = `${signingInput}.${signature.toString('base64url')}`;
  if (own) {
    remember(own.signed, signingInput, jwt, SIGNED_PER_KEY);
    remember(own.tokens, jwt, new SignedHere(payloadPart), TOKENS_PER_KEY);
  }
  return jwt;
}

/** Checks signature and expiry at `nowSeconds` with jose; a token is expired from its `exp` on. */
export async function verifyActivationToken(
  publicKey: KeyObject,
  jwt: string,
  nowSeconds: number,
): Promise<ActivationTokenCheck> {
  try {
    const { payload } = await jwtVerify(jwt, publicKey, {
      algorithms: [HEADER.alg],
      currentDate: new Date(Math.floor(nowSeconds) * 1000),
      requiredClaims: ['exp', 'iat', 'jti'],
    });
    const claims = asActivationClaims(payload);
    return claims ? { ok: true, claims } : { ok: false, reason: 'malformed' };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_JWT_EXPIRED') return { ok: false, reason: 'expired' };
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return { ok: false, reason: 'bad-signature' };
    return { ok: false, reason: 'malformed' };
  }
}

/** verifyActivationTokenSync with the key pair's public half: the same verdicts, and a token this pair signed needs no verification. */
export function verifyActivationTokenWith(key: ActivationSigningKey, jwt: string, nowSeconds: number): ActivationTokenCheck {
  const here = key instanceof SigningKey ? key.tokens.get(jwt) : undefined;
  if (here) return payloadCheck(here.payload, nowSeconds);
  return verifyActivationTokenSync(key.publicKey, jwt, nowSeconds);
}

/** Same check as verifyActivationToken, with the same verdicts, synchronously. */
export function verifyActivationTokenSync(publicKey: KeyObject, jwt: string, nowSeconds: number): ActivationTokenCheck {
  const parts = jwt.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return MALFORMED;
  const [headerPart, payloadPart, signaturePart] = parts;

  const header = parseJsonObject(headerPart);
  if (header?.alg !== HEADER.alg) return MALFORMED;

  let signatureValid: boolean;
  try {
    signatureValid = verify(null, Buffer.from(`${headerPart}.${payloadPart}`), publicKey, Buffer.from(signaturePart, 'base64url'));
  } catch {
    signatureValid = false;
  }
  if (!signatureValid) return { ok: false, reason: 'bad-signature' };
  return payloadCheck(parseJsonObject(payloadPart), nowSeconds);
}

/** The verdict on a token whose signature is valid, from its payload. */
function payloadCheck(payload: Record<string, unknown> | null, nowSeconds: number): ActivationTokenCheck {
  if (!payload || typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return MALFORMED;
  if (payload.exp <= Math.floor(nowSeconds)) return { ok: false, reason: 'expired' };
  const claims = asActivationClaims(payload);
  return claims ? { ok: true, claims } : MALFORMED;
}

// Decoding is pure, and a run decodes the same few tokens again and again: the answers are kept, frozen.
/** The token's claims without checking its signature or expiry (what Vault's UI does), or null. */
export const decodeActivationClaims: (jwt: string) => ActivationClaims | null = memoBounded((jwt: string) => {
  try {
    const claims = asActivationClaims(decodeJwt(jwt));
    return claims && Object.freeze(claims);
  } catch {
    return null;
  }
}, 4096);

function orderedClaims(claims: ActivationClaims): ActivationClaims {
  return { addr: claims.addr, exp: claims.exp, iat: claims.iat, jti: claims.jti, type: claims.type };
}

function asActivationClaims(payload: Record<string, unknown>): ActivationClaims | null {
  const { addr, exp, iat, jti, type } = payload;
  if (typeof addr !== 'string' || typeof jti !== 'string' || type !== 'wrapping') return null;
  if (typeof exp !== 'number' || typeof iat !== 'number') return null;
  return { addr, exp, iat, jti, type };
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

function parseJsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
