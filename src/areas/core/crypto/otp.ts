// One-time-pad encoding of a generated token, as Vault's sdk/helper/roottoken does it: the token is
// XORed with a base62 OTP of the same length, and the result is base64 without padding.
import type { Rng } from '../../../kernel/prng.js';

/** OTP length for `hvs.` tokens: 24 random characters plus the 4-character prefix. */
export const OTP_LENGTH = 28;

const BASE64_RAW = /^[A-Za-z0-9+/]*$/;

/** A fresh base62 OTP drawn from the world's generator. */
export function generateOtp(rng: Rng, length: number = OTP_LENGTH): string {
  return rng.base62(length);
}

/** The token XORed with the OTP, base64 without padding; throws if their lengths differ. */
export function encodeToken(token: string, otp: string): string {
  if (token.length === 0) throw new Error('no token provided');
  if (otp.length === 0) throw new Error('no otp provided');
  const xored = xorBytes(Buffer.from(otp, 'utf8'), Buffer.from(token, 'utf8'), 'xor of root token failed');
  return xored.toString('base64').replace(/=+$/, '');
}

/** The token an encoded token hides, given the OTP it was encoded with; throws on a bad input. */
export function decodeToken(encoded: string, otp: string): string {
  // Node's decoder skips junk silently; Vault's RawStdEncoding refuses it, so check first.
  if (!BASE64_RAW.test(encoded) || encoded.length % 4 === 1) {
    throw new Error("error decoding base64'd token: illegal base64 data");
  }
  return xorBytes(Buffer.from(encoded, 'base64'), Buffer.from(otp, 'utf8'), 'error xoring token').toString('utf8');
}

function xorBytes(a: Buffer, b: Buffer, failure: string): Buffer {
  if (a.length !== b.length) {
    throw new Error(`${failure}: length of byte slices is not equivalent: ${a.length} != ${b.length}`);
  }
  return Buffer.from(a.map((byte, i) => byte ^ b[i]));
}
