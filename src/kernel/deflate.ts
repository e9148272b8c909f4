// Bytes kept deflated for as long as a run or a session lasts (its step records, a scenario's steps).
//
// zlib's `deflateSync` returns a view of its 16 KB output buffer however little it wrote, so a kept
// chunk of 2 KB would hold 16 KB: 13 MB of a 100,000-step run's buffers, against some 2 MB of bytes.
// The chunk kept is a copy of its own size, outside Node's buffer pool (a pooled copy would hold
// the pool's 8 KB slab, shared with whatever short-lived buffer was cut from it).
import { deflateSync } from 'node:zlib';

/** `bytes` deflated, in a buffer of exactly their deflated size. */
export function deflateToKeep(bytes: Uint8Array): Buffer {
  const view = deflateSync(bytes);
  if (view.byteLength === view.buffer.byteLength) return view;
  const own = Buffer.allocUnsafeSlow(view.byteLength);
  view.copy(own);
  return own;
}

