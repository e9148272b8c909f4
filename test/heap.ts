// The heap in use after full collections, for the tests that bound memory growth (a soak of serve, a
// long run). The flag is set at run time, and a fresh context exposes `gc`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes of heap in use after two full collections. */
export function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
