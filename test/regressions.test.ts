// Regression scenarios (test/fixtures/regressions/*.yaml): each reproduces a bug that was found and
// fixed, as a scenario that failed before the fix. Each must load and its outcome match its `expect`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatScenarioError, loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';

const DIR = join(__dirname, 'fixtures', 'regressions');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

describe('regression scenarios', () => {
  it.each(files)('%s', async (file) => {
    const loaded = loadScenario(readFileSync(join(DIR, file), 'utf8'), file);
    if (!loaded.ok) throw new Error(loaded.errors.map(formatScenarioError).join('\n'));
    const result = await runScenario(loaded.scenario);
    expect(result.reasons, file).toEqual([]);
    expect(result.verdict).toBe('valid');
  });
});
