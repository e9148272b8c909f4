// A worker thread's entry when replsim runs from its TypeScript sources (see
// src/explore/property-worker-tsx.mjs): the task is loaded through tsx's tsImport.
import { tsImport } from 'tsx/esm/api';

const { default: runTask } = await tsImport('./whatif-worker.ts', import.meta.url);
export default runTask;
