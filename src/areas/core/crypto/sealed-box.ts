// Credentials for a secondary that supplied `secondary_public_key`: encrypted to its X25519 key
// instead of response-wrapped. Vault's real format is not public; this is an ECIES-style box built
// from Node's crypto, with every key and IV drawn from the world's seeded generator so a replay
// rebuilds the same ciphertext.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import type { Rng } from '../../../kernel/prng.js';

export type SecondaryKeyPair = { publicKey: string; privateKey: string };

// DER wrappings of raw X25519 keys (RFC 8410), since Node imports keys only in container formats.
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_INFO = Buffer.from('replsim sealed box v1');

/** A secondary's X25519 key pair (raw keys, base64), drawn from the world's generator. */
export function generateSecondaryKeyPair(rng: Rng): SecondaryKeyPair {
  const seed = Buffer.from(rng.bytes(KEY_BYTES));
  return { publicKey: rawPublicKey(privateKeyFromRaw(seed)).toString('base64'), privateKey: seed.toString('base64') };
}

/** Encrypts `plaintext` so only the holder of the matching private key can read it (base64 out). */
export function sealToPublicKey(plaintext: string, recipientPublicKeyB64: string, rng: Rng): string {
  const recipientRaw = decodeRawKey(recipientPublicKeyB64, 'public');
  const ephemeral = privateKeyFromRaw(Buffer.from(rng.bytes(KEY_BYTES)));
  const ephemeralRaw = rawPublicKey(ephemeral);
  const key = boxKey(ephemeral, publicKeyFromRaw(recipientRaw), ephemeralRaw, recipientRaw);
  const iv = Buffer.from(rng.bytes(IV_BYTES));
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([ephemeralRaw, iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Opens a box made by sealToPublicKey; throws if the key is wrong or the box was altered. */
export function openSealed(sealedB64: string, recipientPrivateKeyB64: string): string {
  const recipient = privateKeyFromRaw(decodeRawKey(recipientPrivateKeyB64, 'private'));
  const sealed = Buffer.from(sealedB64, 'base64');
  if (sealed.length < KEY_BYTES + IV_BYTES + TAG_BYTES) throw new Error('sealed box is too short to be valid');
  const ephemeralRaw = sealed.subarray(0, KEY_BYTES);
  const iv = sealed.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES);
  const tag = sealed.subarray(KEY_BYTES + IV_BYTES, KEY_BYTES + IV_BYTES + TAG_BYTES);
  const ciphertext = sealed.subarray(KEY_BYTES + IV_BYTES + TAG_BYTES);
  try {
    const key = boxKey(recipient, publicKeyFromRaw(ephemeralRaw), ephemeralRaw, rawPublicKey(recipient));
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed box cannot be opened: wrong private key or altered contents');
  }
}

// Both public keys go into the HKDF salt so a box is bound to the exact pair that made it.
function boxKey(own: KeyObject, peer: KeyObject, ephemeralRaw: Buffer, recipientRaw: Buffer): Buffer {
  const shared = diffieHellman({ privateKey: own, publicKey: peer });
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeralRaw, recipientRaw]), HKDF_INFO, KEY_BYTES));
}

function decodeRawKey(b64: string, kind: 'public' | 'private'): Buffer {
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== KEY_BYTES || raw.toString('base64') !== b64) {
    throw new Error(`${kind} key must be a base64-encoded ${KEY_BYTES}-byte X25519 key`);
  }
  return raw;
}

function privateKeyFromRaw(raw: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

function publicKeyFromRaw(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([X25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

function rawPublicKey(privateKey: KeyObject): Buffer {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(X25519_SPKI_PREFIX.length);
}
