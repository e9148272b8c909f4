// A chunk kept deflated holds its own bytes only: zlib's sync deflate hands back a view of a 16 KB
// output buffer, which a run keeping hundreds of chunks would pin whole.
import { describe, expect, it } from 'vitest';
import { deflateSync, inflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { deflateToKeep } from '../../src/kernel/deflate.js';

describe('deflateToKeep', () => {
  const lines = Buffer.from(Array.from({ length: 256 }, (_, i) => JSON.stringify({ step: i, request: `POST secret/data/k${i}`, status: 200 }) + '\n').join(''));

  it('keeps a small chunk in a buffer of its own size, where deflateSync returns a view of a larger one', () => {
    expect(deflateSync(lines).buffer.byteLength).toBeGreaterThan(deflateSync(lines).byteLength);
    const kept = deflateToKeep(lines);
    expect(kept.buffer.byteLength).toBe(kept.byteLength);
    expect(kept.byteOffset).toBe(0);
    expect(inflateSync(kept).equals(lines)).toBe(true);
  });

  it('keeps a chunk larger than zlib output buffer whole and exact', () => {
    const noise = randomBytes(100_000);
    const kept = deflateToKeep(noise);
    expect(kept.buffer.byteLength).toBe(kept.byteLength);
    expect(inflateSync(kept).equals(noise)).toBe(true);
  });
});
