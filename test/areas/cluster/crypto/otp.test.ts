import { describe, expect, it } from 'vitest';
import { OTP_LENGTH, decodeToken, encodeToken, generateOtp } from '../../../../src/areas/core/crypto/otp.js';
import { SeededRng } from '../../../../src/kernel/prng.js';

const rng = () => new SeededRng(11);
const token = (r = rng()) => `hvs.${r.base62(24)}`;

describe('otp', () => {
  it('generates a base62 OTP as long as an hvs. token (28)', () => {
    const otp = generateOtp(rng());
    expect(OTP_LENGTH).toBe(28);
    expect(otp).toMatch(/^[0-9A-Za-z]{28}$/);
    expect(generateOtp(rng(), 26)).toHaveLength(26);
  });

  it('the same seed gives the same OTP', () => {
    expect(generateOtp(rng())).toBe(generateOtp(rng()));
  });

  it('encodes as unpadded standard base64 of token XOR otp, and decodes back', () => {
    const tok = token(new SeededRng(1));
    const otp = generateOtp(new SeededRng(2));
    const encoded = encodeToken(tok, otp);
    const expected = Buffer.from([...Buffer.from(tok)].map((b, i) => b ^ otp.charCodeAt(i)));
    expect(encoded).toBe(expected.toString('base64').replace(/=+$/, ''));
    expect(encoded).not.toContain('=');
    expect(decodeToken(encoded, otp)).toBe(tok);
  });

  it('refuses an OTP of another length with the Vault message', () => {
    expect(() => encodeToken('someToken', generateOtp(rng()))).toThrow(
      'xor of root token failed: length of byte slices is not equivalent: 28 != 9',
    );
  });

  it('refuses to decode with an OTP of another length', () => {
    const encoded = encodeToken(token(), generateOtp(rng()));
    expect(() => decodeToken(encoded, 'short')).toThrow(/length of byte slices is not equivalent: 28 != 5/);
  });

  it('refuses to decode text that is not unpadded base64', () => {
    expect(() => decodeToken('not*base64', generateOtp(rng()))).toThrow(/error decoding base64'd token/);
  });

  it('refuses an empty token or OTP', () => {
    expect(() => encodeToken('', 'x')).toThrow('no token provided');
    expect(() => encodeToken('x', '')).toThrow('no otp provided');
  });
});
