// The README is the front door: its example scenario must run as printed, and its set-up
// commands must be the ones package.json and CI use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';

const root = join(__dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('README', () => {
  it('its example scenario loads and runs valid', async () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const loaded = loadScenario(block![1], 'README.md');
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const result = await runScenario(loaded.scenario);
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('valid');
  });

  it('gives the two set-up commands, and CI runs its test command', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(/^npm ci/m);
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toMatch(/scenarios\/01-/);
  });
});

describe('README catalogue', () => {
  it('lists every invariant and hazard the runner checks', async () => {
    const { describeCatalogue } = await import('../src/check/catalogue.js');
    for (const m of describeCatalogue()) expect(readme).toContain(`| \`${m.id}\` | ${m.kind} |`);
  });
});
