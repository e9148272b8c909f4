// The test files share worker processes (vitest.config.ts, isolate: false), and with them fetch's
// pool of kept-alive connections. A pooled connection to a server an earlier file stopped is reused
// for a new server the system gave the same port, and the request fails ("other side closed"). Each
// file leaves with the pool emptied and a new one in its place, as a process of its own would have.
import { afterAll } from 'vitest';

/** Where node's fetch keeps its dispatcher (undici's global dispatcher, version 1 of the key). */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  destroy(): Promise<void>;
}

afterAll(async () => {
  const global = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const used = global[DISPATCHER];
  if (used === undefined) return;
  global[DISPATCHER] = new (used.constructor as new () => Dispatcher)();
  await used.destroy();
});
