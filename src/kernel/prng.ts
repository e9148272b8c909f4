// The world's only source of randomness. Seeded, so the same scenario and seed draw the same
// values; every value drawn is written into the event that needs it, so replay never calls this.
import prand from 'pure-rand';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Two lower-case hex digits for each byte value. */
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export interface Rng {
  /** A uniform unsigned 32-bit integer. */
  nextUint32(): number;
  /** A uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  bytes(n: number): Uint8Array;
  /** RFC 4122 version-4 shaped UUID built from seeded bytes. */
  uuid(): string;
  base62(length: number): string;
  /** The generator's position, so a forked world can continue the same stream. */
  save(): number[];
}

/**
 * xoroshiro128+'s starting state for a seed. pure-rand's `xoroshiro128plus(seed)` keeps only the
 * low 32 bits (`seed | 0`), so seeds 1 and 2^32 + 1 gave the same world. Seeds that fit in 32 bits
 * get exactly the state that call makes (histories of existing seeds are unchanged); larger safe
 * integers put their high bits in the last word, so every seed the CLI accepts is its own world.
 */
export function seedState(seed: number): number[] {
  const lo = seed | 0;
  const fits = seed === lo || (seed >= 0 && seed < 2 ** 32);
  const hi = fits ? 0 : Math.floor(seed / 2 ** 32) | 0;
  return [-1, ~lo, lo, hi];
}

export class SeededRng implements Rng {
  private rng: prand.RandomGenerator;

  constructor(seed: number, state?: readonly number[]) {
    this.rng = state ? prand.xoroshiro128plus.fromState(state) : prand.xoroshiro128plus.fromState(seedState(seed));
    // Small seeds leave xoroshiro's first outputs full of zero bits; a warm-up spreads them.
    if (!state) for (let i = 0; i < 32; i++) this.rng.unsafeNext();
  }

  nextUint32(): number {
    return prand.unsafeUniformIntDistribution(0, 0xffffffff, this.rng);
  }

  int(min: number, max: number): number {
    return prand.unsafeUniformIntDistribution(min, max, this.rng);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let v = this.nextUint32();
      for (let j = 0; j < 4 && i + j < n; j++) {
        out[i + j] = v & 0xff;
        v >>>= 8;
      }
    }
    return out;
  }

  uuid(): string {
    const b = this.bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    // Byte by byte from a table: every successful request draws one (its request_id), and a
    // Buffer and five slices cost more than the draw.
    let s = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
      s += HEX_BYTE[b[i]];
    }
    return s;
  }

  base62(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += BASE62[this.int(0, 61)];
    return s;
  }

  save(): number[] {
    return (this.rng as unknown as { getState(): readonly number[] }).getState().slice();
  }
}
