// Between two tests, let the worker's event loop read what the vitest process sent it. Many
// end-to-end tests run the real command with spawnSync, which holds the loop for the child's whole
// run; a file of such tests, chained by promises alone, never reaches the loop's poll phase, so the
// answer to the worker's "onTaskUpdate" call is not read, and after 60 s of a loaded machine its
// timer reports "Timeout calling onTaskUpdate" (an error of the run, though every test passed).
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
