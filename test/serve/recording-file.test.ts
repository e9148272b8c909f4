// The `--record` file is written as the session goes: after every step it is whole up to that step
// (its YAML parses and holds every step applied, a last wait excepted, which the next wait may still
// grow), it says it is in progress, and `replsim run` refuses it until the session stops and writes
// it finished. A value a later request sends back is saved on the step that produced it even though
// that step was already written (the file is then written again whole). Its steps, run, rebuild the
// session's world.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { decodeToken } from '../../src/areas/core/crypto/otp.js';
import { loadScenario, formatScenarioError } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { serve, writeSessionFiles } from '../../src/serve/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'replsim-recording-file-'));

describe('serve --record writes the recording as the session goes', () => {
  it('is whole after every step, marked in progress, and replaced by the finished recording on stop', async () => {
    const file = join(dir, 'rec.yaml');
    const h = await serve({ clusters: ['east', 'west'], clock: 'manual', record: file });
    const seen: number[] = [];
    const check = () => {
      const text = readFileSync(file, 'utf8');
      expect(text.split('\n')[0]).toMatch(/^# replsim-recording\/1: in progress/);
      const doc = parse(text) as { steps: unknown[] | null; clusters: unknown };
      expect(doc.clusters).toEqual({ east: {}, west: {} });
      seen.push(doc.steps?.length ?? 0);
      // The finished recording as it would be now holds the same steps, and perhaps a last wait more.
      const now = (parse(h.session.scenarioYaml()) as { steps: unknown[] }).steps;
      expect(now.slice(0, seen[seen.length - 1])).toEqual(doc.steps ?? []);
      expect(now.length - seen[seen.length - 1]).toBeLessThanOrEqual(1);
    };
    const call = async (cluster: string, method: string, path: string, body?: unknown, token?: string) => {
      const r = await h.session.request(cluster, { method, path, body, token });
      check();
      return r.body as any;
    };
    const step = async (s: unknown) => {
      expect((await h.session.control(s)).ok).toBe(true);
      check();
    };
    const eastRoot = h.world.tokenNamed('east', 'root')!;
    const westRoot = h.world.tokenNamed('west', 'root')!;
    check();
    await call('east', 'POST', 'sys/replication/dr/primary/enable', {}, eastRoot);
    // The activation token is written with the step that answered it, before the request that sends it back.
    const token = (await call('east', 'POST', 'sys/replication/dr/primary/secondary-token', { id: 'west' }, eastRoot)).wrap_info.token;
    await call('west', 'POST', 'sys/replication/dr/secondary/enable', { token }, westRoot);
    expect(readFileSync(file, 'utf8')).toMatch(/save:\n\s+eastWrapToken: wrap_info\.token/);
    await call('east', 'POST', 'secret/data/a', { data: { n: 1 } }, eastRoot);
    await step({ wait: '1s' });
    await step({ wait: '1s' });
    await call('west', 'GET', 'secret/data/a', undefined, westRoot); // refused: a comment line
    await step({ crash: 'east' });
    await step({ wait: '5s' });
    const attempt = await call('west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/attempt', {});
    let encoded = '';
    for (const i of [0, 1, 2]) encoded = (await call('west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/update', { key: h.world.state.operators.east.keys[i], nonce: attempt.nonce })).encoded_token ?? encoded;
    await call('west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: decodeToken(encoded, attempt.otp) });
    await step({ restart: 'east' });
    expect(readFileSync(file, 'utf8')).toContain('# refused (400): GET secret/data/a on west');
    expect(seen[seen.length - 1]).toBeGreaterThan(10);

    // Killed here, the file is refused by name and line, and its steps rebuild the world.
    const text = readFileSync(file, 'utf8');
    const refused = loadScenario(text, file);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(formatScenarioError(refused.errors[0])).toMatch(/rec\.yaml:\d+:1: the recording was still being written here/);
    const steps = loadScenario(text.slice(text.indexOf('\n') + 1), file);
    if (!steps.ok) throw new Error(steps.errors.map(formatScenarioError).join('\n'));
    const rerun = await runScenario(steps.scenario);
    expect(rerun.steps.every((s) => s.ok)).toBe(true);
    expect(rerun.stateHash).toBe(h.world.stateHash());

    const result = await h.stop();
    writeSessionFiles(h, result, {});
    const finished = readFileSync(file, 'utf8');
    expect(finished).toBe(h.session.scenarioYaml());
    expect(loadScenario(finished, file).ok).toBe(true);
  }, 60_000);
});
