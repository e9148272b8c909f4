// Root key shares. Shamir splitting comes from secrets.js-grempe because it takes the random bits
// from its caller, so the same world seed always hands out the same shares.
// A share travels as bytes laid out like Vault's: the share data followed by its x-coordinate byte.
import secrets from 'secrets.js-grempe';
import type { Rng } from '../../../kernel/prng.js';
import { memoBounded } from '../../../kernel/memo.js';

// secrets.js shares are text: one base-36 digit for the field size, the id in hex, then the data.
// Vault's field is GF(2^8), so ids are two hex digits and at most 255 shares exist.
const FIELD_BITS = 8;

// The typings only admit the named system generators, but the library takes any bit-string source.
const setBitSource = secrets.setRNG as unknown as (source: (bits: number) => string) => void;

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64_STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Splits the root key into `shares` base64 shares, any `threshold` of which recombine it. */
export function splitRootKey(rootKeyHex: string, shares: number, threshold: number, rng: Rng): string[] {
  if (!HEX.test(rootKeyHex)) throw new Error('root key must be an even-length hex string');
  if (!Number.isInteger(threshold) || !Number.isInteger(shares) || threshold < 1 || threshold > shares) {
    throw new Error(`cannot split into ${shares} shares with threshold ${threshold}`);
  }
  // Vault does not split a key meant for a single holder: the share is the key itself.
  if (shares === 1) return [Buffer.from(rootKeyHex, 'hex').toString('base64')];
  if (threshold < 2) throw new Error('a threshold of 1 needs exactly 1 share');
  if (shares > 2 ** FIELD_BITS - 1) throw new Error(`at most ${2 ** FIELD_BITS - 1} shares can be made`);

  useFieldBits();
  // setRNG probes its source a few times before accepting it; answering those probes with a fixed
  // pattern keeps them off the world's stream (and away from the all-zero draw it would reject).
  // Disarming afterwards keeps any later use of the library from advancing this world's stream.
  let armed = false;
  setBitSource((bits) => (armed ? randomBits(rng, bits) : '1'.repeat(bits)));
  armed = true;
  try {
    return secrets.share(rootKeyHex.toLowerCase(), shares, threshold).map(shareToBase64);
  } finally {
    armed = false;
  }
}

/** A key share given as hex or base64 (hex tried first, as Vault does) in normal form, or null. */
export function parseShare(input: string): string | null {
  let bytes: Buffer;
  if (HEX.test(input)) bytes = Buffer.from(input, 'hex');
  else if (BASE64_STD.test(input)) bytes = Buffer.from(input, 'base64');
  else return null;
  return bytes.length === 0 ? null : bytes.toString('base64');
}

// Speed: the same shares are recombined over and over (every DR operation token or root token an
// explorer or property run generates gives a cluster's operators' shares again), and recombining
// is pure (the field size is fixed): keep what recent sets of shares gave.
const combinedOf = memoBounded((joined: string) => combineAnew(joined === '' ? [] : joined.split(' ')), 1024);

/** Recombines normalised shares into the root key (hex); wrong or too few shares give a wrong key. */
export function combineShares(shares: string[]): string {
  return combinedOf(shares.join(' '));
}

function combineAnew(shares: string[]): string {
  if (shares.length === 0) throw new Error('failed to compute root key: no shares given');
  const parts = shares.map((share) => Buffer.from(share, 'base64'));
  if (parts.length === 1) return parts[0].toString('hex');
  if (parts.some((p) => p.length < 2)) throw new Error('failed to compute root key: parts must be at least two bytes');
  if (parts.some((p) => p.length !== parts[0].length)) {
    throw new Error('failed to compute root key: all parts must be the same length');
  }
  const ids = new Set(parts.map((p) => p[p.length - 1]));
  if (ids.has(0)) throw new Error('failed to compute root key: a share cannot have x-coordinate 0');
  if (ids.size !== parts.length) throw new Error('failed to compute root key: duplicate part detected');

  useFieldBits();
  return secrets.combine(parts.map(bytesToShare)).toLowerCase();
}

// Another module may have re-initialised the library's global field size.
function useFieldBits(): void {
  // init insists on naming a generator; splitRootKey installs its own before drawing anything.
  if (secrets.getConfig().bits !== FIELD_BITS) secrets.init(FIELD_BITS, 'nodeCryptoRandomBytes');
}

function randomBits(rng: Rng, bits: number): string {
  let out = '';
  while (out.length < bits) out += rng.nextUint32().toString(2).padStart(32, '0');
  return out.slice(0, bits);
}

function shareToBase64(share: string): string {
  const { id, data } = secrets.extractShareComponents(share);
  return Buffer.concat([Buffer.from(data, 'hex'), Buffer.from([id])]).toString('base64');
}

function bytesToShare(bytes: Buffer): string {
  const id = bytes[bytes.length - 1];
  const data = bytes.subarray(0, bytes.length - 1).toString('hex');
  return FIELD_BITS.toString(36).toUpperCase() + id.toString(16).padStart(2, '0') + data;
}
