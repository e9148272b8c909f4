// Shared by the property and explorer tests: run the CLI in-process, and replay an exported
// scenario as `replsim run` would.
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario, type RunResult } from '../../../src/scenario/runner.js';
import { main } from '../../../src/cli/main.js';
import { scenarioYaml, type ScenarioExport } from '../../../src/explore/export.js';

/** Runs `replsim ...args` in this process: exit code and what it printed. */
export async function replsim(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), stdout: { isTTY: false }, env: { NO_COLOR: '1' } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Writes an export as YAML, loads it back as `replsim run` does, and runs it. */
export async function runExported(s: ScenarioExport): Promise<RunResult> {
  const loaded = loadScenario(scenarioYaml(s), 'exported.yaml');
  if (!loaded.ok) throw new Error(`the exported scenario does not load: ${JSON.stringify(loaded.errors)}`);
  return runScenario(loaded.scenario);
}
