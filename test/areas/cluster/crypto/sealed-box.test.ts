import { describe, expect, it } from 'vitest';
import { generateSecondaryKeyPair, openSealed, sealToPublicKey } from '../../../../src/areas/core/crypto/sealed-box.js';
import { SeededRng } from '../../../../src/kernel/prng.js';

const SECRET = 'hvs.activation-credentials';

describe('sealed box', () => {
  it('makes raw 32-byte X25519 keys, the same for the same seed', () => {
    const pair = generateSecondaryKeyPair(new SeededRng(3));
    expect(Buffer.from(pair.publicKey, 'base64')).toHaveLength(32);
    expect(Buffer.from(pair.privateKey, 'base64')).toHaveLength(32);
    expect(generateSecondaryKeyPair(new SeededRng(3))).toEqual(pair);
    expect(generateSecondaryKeyPair(new SeededRng(4)).publicKey).not.toBe(pair.publicKey);
  });

  it('round trips: the recipient opens what was sealed to its public key', () => {
    const pair = generateSecondaryKeyPair(new SeededRng(3));
    const sealed = sealToPublicKey(SECRET, pair.publicKey, new SeededRng(5));
    expect(openSealed(sealed, pair.privateKey)).toBe(SECRET);
  });

  it('the same seed gives the same sealed output', () => {
    const { publicKey } = generateSecondaryKeyPair(new SeededRng(3));
    expect(sealToPublicKey(SECRET, publicKey, new SeededRng(5))).toBe(sealToPublicKey(SECRET, publicKey, new SeededRng(5)));
    expect(sealToPublicKey(SECRET, publicKey, new SeededRng(6))).not.toBe(sealToPublicKey(SECRET, publicKey, new SeededRng(5)));
  });

  it('another private key cannot open it', () => {
    const pair = generateSecondaryKeyPair(new SeededRng(3));
    const other = generateSecondaryKeyPair(new SeededRng(4));
    const sealed = sealToPublicKey(SECRET, pair.publicKey, new SeededRng(5));
    expect(() => openSealed(sealed, other.privateKey)).toThrow(/cannot be opened/);
  });

  it('an altered box cannot be opened', () => {
    const pair = generateSecondaryKeyPair(new SeededRng(3));
    const bytes = Buffer.from(sealToPublicKey(SECRET, pair.publicKey, new SeededRng(5)), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => openSealed(bytes.toString('base64'), pair.privateKey)).toThrow(/cannot be opened/);
    expect(() => openSealed('AAAA', pair.privateKey)).toThrow(/too short/);
  });

  it('refuses a public key that is not base64 of 32 bytes', () => {
    expect(() => sealToPublicKey(SECRET, 'abcd', new SeededRng(5))).toThrow(/32-byte X25519 key/);
  });
});
