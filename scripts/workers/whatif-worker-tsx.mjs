// A worker thread's entry when replsim runs from its TypeScript sources (see
// property-worker-tsx.mjs beside it): the task is loaded through tsx's tsImport.
import { tsImport } from 'tsx/esm/api';

const { default: runTask } = await tsImport('../../src/whatif/whatif-worker.ts', import.meta.url);
export default runTask;
