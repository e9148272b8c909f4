// Scenario files for #13's "Must show": each runs to its own `expect` (pass) through the loader
// and runner, as `replsim run` would. Gallery 24 shows the DR failover of a synced association.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario } from '../../../src/scenario/runner.js';

const dir = join(__dirname, 'scenarios');

describe('sync and plugin scenarios under replication', () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    it(file, async () => {
      const loaded = loadScenario(readFileSync(join(dir, file), 'utf8'), file);
      if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
      const r = await runScenario(loaded.scenario);
      expect(r.reasons).toEqual([]);
      expect(r.verdict).toBe('valid');
    });
  }
});
