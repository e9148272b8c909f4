// The scenario gallery (scenarios/NN-*.yaml) run in-process, one test per file: each file must load
// and its outcome must match its own `expect`, so a regression in the simulator fails CI here. The
// gallery's conventions are checked too, since trainers and editors rely on them: the schema comment
// on the first line, a description to read aloud, a stated expected outcome, and a name on every step.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogue } from '../src/check/catalogue.js';
import { formatScenarioError, loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';
import type { Scenario } from '../src/scenario/schema.js';

const DIR = join(__dirname, '..', 'scenarios');
const SCHEMA_COMMENT = '# yaml-language-server: $schema=./schema.json';
const GALLERY_FILE = /^\d\d-.+\.yaml$/;

const files = readdirSync(DIR)
  .filter((f) => GALLERY_FILE.test(f))
  .sort();

/** The hazard and invariant ids replsim has a monitor for today. */
const monitored = new Set<string>(catalogue.map((factory) => factory().id));

/** The id a file expects to see arise, or null for `pass`. */
function expectedFinding(expectation: Scenario['expect']): string | null {
  if (expectation === 'pass') return null;
  if ('hazards' in expectation) return expectation.hazards.find((id) => !monitored.has(id)) ?? expectation.hazards[0];
  return 'hazard' in expectation ? expectation.hazard : expectation.violation;
}

describe('scenario gallery', () => {
  it('has at least 12 numbered scenarios', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
  });

  it.each(files)('%s', async (file) => {
    const text = readFileSync(join(DIR, file), 'utf8');
    expect(text.split(/\r?\n/, 1)[0], 'first line').toBe(SCHEMA_COMMENT);

    const raw = parse(text) as Record<string, unknown>;
    expect(raw, 'the expected outcome is stated, not left to the default').toHaveProperty('expect');

    const loaded = loadScenario(text, `scenarios/${file}`);
    if (!loaded.ok) throw new Error(loaded.errors.map(formatScenarioError).join('\n'));
    const scenario = loaded.scenario;
    expect(scenario.description?.trim() ?? '', 'description').not.toBe('');
    const unnamed = scenario.steps.map((s, i) => (s.name ? null : i + 1)).filter((i) => i !== null);
    expect(unnamed, 'steps without a name').toEqual([]);

    const result = await runScenario(scenario);
    // Calls made within a request (unwrap, forwarded writes) are decided by the network at that
    // instant, and a request whose call it cannot carry is refused: every call sent was delivered then.
    for (const m of result.world.messages) if (m.kind === 'unwrap' || m.kind === 'forwarded-write') expect(m, m.id).toMatchObject({ deliveredAt: m.sentAt, droppedAt: null });
    const awaited = expectedFinding(scenario.expect);
    if (awaited !== null && !monitored.has(awaited)) {
      // The monitor for this id is not in the catalogue yet: every step must still hold, and the
      // missing finding must be the only reason the run is not valid. Once the monitor lands, the
      // branch below checks the full verdict.
      expect(result.steps.filter((s) => !s.ok).map((s) => `step ${s.index + 1}: ${s.failure}`)).toEqual([]);
      expect(result.skipped).toBe(0);
      expect(result.reasons.filter((r) => !r.startsWith(`expected hazard ${awaited} `) && !r.startsWith(`expected violation of ${awaited} `))).toEqual([]);
      return;
    }
    expect(result.reasons, `${file} should be valid`).toEqual([]);
    expect(result.verdict).toBe('valid');
  });
});
