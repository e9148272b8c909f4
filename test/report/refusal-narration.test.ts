// The rule narration names under a refusal comes from the refusal's registered code, not from its
// text (#11). Two refusals the old regexes over error texts explained wrongly are pinned here: a
// 403 for a token wiped by DR enable is not a missing capability, and a 404 for a mount that never
// arrived is not an unknown endpoint — though the service's answers are the same texts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { narrateStep, plain } from '../../src/report/narrate.js';
import { stepJson } from '../../src/report/results.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario, type RunResult } from '../../src/scenario/runner.js';

const GALLERY = join(__dirname, '..', '..', 'scenarios');

async function run(file: string): Promise<RunResult> {
  const loaded = loadScenario(readFileSync(join(GALLERY, file), 'utf8'), file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return runScenario(loaded.scenario);
}

const ruleLine = (r: RunResult, step: number) => narrateStep(r.steps.at(step - 1)!, plain).find((l) => l.trim().startsWith('rule:')) ?? '';

describe('narration names the rule of the refusal, read from its code', () => {
  it('03 step 19: the root token wiped by DR enable is unknown to the cluster, not short of a capability', async () => {
    const r = await run('03-dr-planned-failover.yaml');
    const step = r.steps.at(18)!;
    expect(step.response).toEqual({ status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } });
    expect(step.refusal?.code).toBe('http.unknownToken');
    expect(ruleLine(r, 19)).toMatch(/the client token is not known to this cluster/);
    expect(ruleLine(r, 19)).toMatch(/wiped with the cluster's data/);
    expect(ruleLine(r, 19)).not.toMatch(/lacks the capability/);
  });

  it('14 steps 20–21: a path under a mount that never arrived has no mount, not no endpoint', async () => {
    const r = await run('14-dr-forced-promotion.yaml');
    for (const n of [20, 21]) {
      expect(r.steps.at(n - 1)!.response?.status).toBe(404);
      expect(r.steps.at(n - 1)!.refusal?.code).toBe('http.noMount');
      expect(ruleLine(r, n)).toMatch(/no mount of this cluster holds this path/);
      expect(ruleLine(r, n)).not.toMatch(/no endpoint of the spec/);
    }
  });

  it('results.json carries the code and the rule of each refused step, and null for the others', async () => {
    const r = await run('03-dr-planned-failover.yaml');
    expect(stepJson(r.steps.at(18)!).rule).toEqual({ code: 'http.unknownToken', rule: 'facts.tokens', words: expect.stringMatching(/not known to this cluster/) });
    const ok = r.steps.find((s) => s.response && s.response.status < 300)!;
    expect(stepJson(ok).rule).toBeNull();
  });

  it('a sys/ path no endpoint has still says so', async () => {
    const r = await run('14-dr-forced-promotion.yaml');
    const w = r.world;
    const res = w.send('west', { method: 'GET', path: 'sys/no/such/endpoint', token: 'x' });
    expect(res.refusal?.code).toBe('http.unsupportedPath');
  });
});
