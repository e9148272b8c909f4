import { describe, expect, it } from 'vitest';
import {
  activationSigningKey,
  decodeActivationClaims,
  signActivationToken,
  signActivationTokenSync,
  verifyActivationToken,
  verifyActivationTokenSync,
  verifyActivationTokenWith,
  type ActivationClaims,
} from '../../../../src/areas/core/crypto/activation-token.js';
import { decodeJwt } from 'jose';
import { SeededRng } from '../../../../src/kernel/prng.js';

const seed = (n: number) => new SeededRng(n).bytes(32);
const CLAIMS: ActivationClaims = {
  addr: 'https://east.example:8200',
  exp: 1_700_001_800,
  iat: 1_700_000_000,
  jti: '5a1b8f3e-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
  type: 'wrapping',
};
const BEFORE_EXPIRY = CLAIMS.iat + 60;

/** Both verifiers' verdicts, which must always agree. */
async function verdicts(key: ReturnType<typeof activationSigningKey>, jwt: string, now: number) {
  const [async_, sync] = [await verifyActivationToken(key.publicKey, jwt, now), verifyActivationTokenSync(key.publicKey, jwt, now)];
  expect(sync).toEqual(async_);
  return sync;
}

/** The token with one character of the given part (0 header, 1 payload, 2 signature) changed. */
function tamper(jwt: string, part: number): string {
  const parts = jwt.split('.');
  const s = parts[part];
  const i = Math.floor(s.length / 2);
  parts[part] = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return parts.join('.');
}

describe('activation token', () => {
  it('jose and the synchronous signer produce the same token', async () => {
    const key = activationSigningKey(seed(1));
    expect(signActivationTokenSync(key, CLAIMS)).toBe(await signActivationToken(key, CLAIMS));
  });

  it('the same seed gives a byte-identical token; another seed another token', () => {
    const a = signActivationTokenSync(activationSigningKey(seed(1)), CLAIMS);
    expect(signActivationTokenSync(activationSigningKey(seed(1)), CLAIMS)).toBe(a);
    expect(signActivationTokenSync(activationSigningKey(seed(2)), CLAIMS)).not.toBe(a);
  });

  it('has an EdDSA JWT header and the Vault claims, in a fixed order', () => {
    const jwt = signActivationTokenSync(activationSigningKey(seed(1)), { ...CLAIMS, jti: 'j' } as ActivationClaims);
    const [header, payload] = jwt.split('.').map((p) => Buffer.from(p, 'base64url').toString());
    expect(header).toBe('{"alg":"EdDSA","typ":"JWT"}');
    expect(Object.keys(JSON.parse(payload))).toEqual(['addr', 'exp', 'iat', 'jti', 'type']);
  });

  it('both verifiers accept a valid token and return its claims', async () => {
    const key = activationSigningKey(seed(1));
    const jwt = await signActivationToken(key, CLAIMS);
    expect(await verdicts(key, jwt, BEFORE_EXPIRY)).toEqual({ ok: true, claims: CLAIMS });
  });

  it('a token is expired from its exp second on', async () => {
    const key = activationSigningKey(seed(1));
    const jwt = signActivationTokenSync(key, CLAIMS);
    expect((await verdicts(key, jwt, CLAIMS.exp - 1)).ok).toBe(true);
    expect(await verdicts(key, jwt, CLAIMS.exp)).toEqual({ ok: false, reason: 'expired' });
  });

  it('a token signed by another cluster has a bad signature', async () => {
    const jwt = signActivationTokenSync(activationSigningKey(seed(2)), CLAIMS);
    expect(await verdicts(activationSigningKey(seed(1)), jwt, BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('an altered payload or signature is detected', async () => {
    const key = activationSigningKey(seed(1));
    const jwt = signActivationTokenSync(key, CLAIMS);
    expect(await verdicts(key, tamper(jwt, 1), BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(await verdicts(key, tamper(jwt, 2), BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('garbage and tokens of another algorithm are malformed', async () => {
    const key = activationSigningKey(seed(1));
    expect(await verdicts(key, 'not-a-jwt', BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'malformed' });
    const es512 = signActivationTokenSync(key, CLAIMS).replace(/^[^.]+/, Buffer.from('{"alg":"ES512","typ":"JWT"}').toString('base64url'));
    expect(await verdicts(key, es512, BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('a signed token without the activation claims is malformed', async () => {
    const key = activationSigningKey(seed(1));
    const jwt = signActivationTokenSync(key, { ...CLAIMS, type: 'other' } as unknown as ActivationClaims);
    expect(await verdicts(key, jwt, BEFORE_EXPIRY)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('decodes the claims without verifying, and gives null for garbage', () => {
    const jwt = signActivationTokenSync(activationSigningKey(seed(1)), CLAIMS);
    expect(decodeActivationClaims(jwt)).toEqual(CLAIMS);
    expect(decodeActivationClaims(tamper(jwt, 2))).toEqual(CLAIMS);
    expect(decodeActivationClaims('garbage')).toBeNull();
  });

  it('a token signed in this process is checked without verifying its signature, with the same verdicts', () => {
    // A pair built again from the same seed has never signed anything: it checks every token in full.
    const signer = activationSigningKey(seed(1));
    const fresh = () => activationSigningKey(seed(1));
    const other = activationSigningKey(seed(2));
    const tokens = [
      signActivationTokenSync(signer, CLAIMS),
      signActivationTokenSync(signer, { ...CLAIMS, jti: 'other' }),
      signActivationTokenSync(signer, { ...CLAIMS, type: 'other' } as unknown as ActivationClaims),
      signActivationTokenSync(signer, { ...CLAIMS, exp: 'soon' } as unknown as ActivationClaims),
      signActivationTokenSync(other, CLAIMS),
    ];
    for (const jwt of [...tokens, tamper(tokens[0], 1), tamper(tokens[0], 2), 'not-a-jwt'])
      for (const now of [BEFORE_EXPIRY, CLAIMS.exp - 1, CLAIMS.exp, CLAIMS.exp + 100]) {
        const full = verifyActivationTokenSync(fresh().publicKey, jwt, now);
        expect(verifyActivationTokenWith(signer, jwt, now)).toEqual(full);
        expect(verifyActivationTokenSync(signer.publicKey, jwt, now)).toEqual(full);
        expect(verifyActivationTokenWith(fresh(), jwt, now)).toEqual(full);
        expect(verifyActivationTokenWith(other, jwt, now)).toEqual(verifyActivationTokenSync(activationSigningKey(seed(2)).publicKey, jwt, now));
      }
  });

  it('decodes a token signed in this process as jose decodes it', () => {
    const signer = activationSigningKey(seed(3));
    for (const claims of [CLAIMS, { ...CLAIMS, type: 'other' }, { ...CLAIMS, addr: 'caf\u00e9 \ud83d' }] as ActivationClaims[]) {
      const jwt = signActivationTokenSync(signer, claims);
      let byJose: ActivationClaims | null = null;
      try {
        const p = decodeJwt(jwt);
        byJose = typeof p.addr === 'string' && typeof p.jti === 'string' && p.type === 'wrapping' && typeof p.exp === 'number' && typeof p.iat === 'number' ? (p as ActivationClaims) : null;
      } catch {
        byJose = null;
      }
      expect(decodeActivationClaims(jwt)).toEqual(byJose && { addr: byJose.addr, exp: byJose.exp, iat: byJose.iat, jti: byJose.jti, type: byJose.type });
    }
  });

  it('signing the same claims again with the same pair gives the same token', () => {
    const signer = activationSigningKey(seed(4));
    const jwt = signActivationTokenSync(signer, CLAIMS);
    expect(signActivationTokenSync(signer, { ...CLAIMS })).toBe(jwt);
    expect(signActivationTokenSync(activationSigningKey(seed(4)), CLAIMS)).toBe(jwt);
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => activationSigningKey(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});
