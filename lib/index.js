// The package's entry point (package.json `exports`). replsim ships its TypeScript sources and runs
// them through tsx (a runtime dependency), as bin/replsim.js does without its bundle; `tsImport`
// compiles only replsim's own files, so the importing project's module loading is left alone.
// Types: src/entry/index.ts (the `types` condition).
import { tsImport } from 'tsx/esm/api';

const replsim = await tsImport('../src/entry/index.ts', import.meta.url);

export const { createWorld, World, WorldUsageError, loadScenario, formatScenarioError, runScenario, serve, ServeError } = replsim;
