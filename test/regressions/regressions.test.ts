// Regression scenarios (test/regressions/*.yaml): counterexamples the property check found, kept as
// scenario files. Each must load and pass its own `expect`, as `replsim run` would judge it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatScenarioError, loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';

const DIR = __dirname;
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('regression scenarios', () => {
  it.each(files)('%s', async (file) => {
    const loaded = loadScenario(readFileSync(join(DIR, file), 'utf8'), file);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => formatScenarioError(e)).join('\n'));
    const result = await runScenario(loaded.scenario);
    expect(result.findings.filter((f) => f.kind === 'violation').map((f) => f.message)).toEqual([]);
    expect(result.verdict, JSON.stringify(result.reasons ?? result.findings)).toBe('valid');
  });
});
