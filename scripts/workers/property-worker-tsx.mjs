// A worker thread's entry when replsim runs from its TypeScript sources (tsx, vitest; a checkout
// whose bundle is older than its sources): module hooks registered in the main thread do not reach
// worker threads on Node 20, so the worker loads the TypeScript task through tsx's tsImport. It
// lives outside src/ because only a checkout runs it: an installed package runs the bundles.
import { tsImport } from 'tsx/esm/api';

const { default: runTask } = await tsImport('../../src/explore/property-worker.ts', import.meta.url);
export default runTask;
