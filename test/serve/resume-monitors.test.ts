// A resumed session's monitors go on with what they saw before the restart: the same steps give the
// same findings whether the session was stopped and resumed halfway or not. A hazard that arose
// before the restart and lasts after it is one finding, not two (fresh monitors would report it
// again at the first step after the resume).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToken } from '../../src/areas/core/crypto/otp.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';

async function ok(h: ServeHandle, cluster: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const r = await h.session.request(cluster, { method, path, body, token });
  if (r.status >= 400) throw new Error(`${method} ${path} on ${cluster}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function control(h: ServeHandle, step: unknown): Promise<void> {
  const a = await h.session.control(step);
  if (!a.ok) throw new Error(`${JSON.stringify(step)}: ${a.error}`);
}

/** An unplanned DR failover whose old primary comes back: two-primaries arises and lasts. */
async function failover(h: ServeHandle): Promise<void> {
  const eastRoot = h.world.tokenNamed('east', 'root')!;
  const westRoot = h.world.tokenNamed('west', 'root')!;
  await ok(h, 'east', 'POST', 'sys/replication/dr/primary/enable', {}, eastRoot);
  const token = (await ok(h, 'east', 'POST', 'sys/replication/dr/primary/secondary-token', { id: 'west' }, eastRoot)).wrap_info.token;
  await ok(h, 'west', 'POST', 'sys/replication/dr/secondary/enable', { token }, westRoot);
  await ok(h, 'east', 'POST', 'secret/data/a', { data: { n: 1 } }, eastRoot);
  await control(h, { wait: '2s' });
  await control(h, { crash: 'east' });
  await control(h, { wait: '5s' });
  const attempt = await ok(h, 'west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/attempt', {});
  let encoded = '';
  for (const i of [0, 1, 2]) encoded = (await ok(h, 'west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/update', { key: h.world.state.operators.east.keys[i], nonce: attempt.nonce })).encoded_token ?? encoded;
  await ok(h, 'west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: decodeToken(encoded, attempt.otp) });
  await control(h, { restart: 'east' });
}

/** Steps after the failover, while both clusters are primaries. */
async function afterwards(h: ServeHandle): Promise<void> {
  const westRoot = h.world.tokenNamed('west', 'root')!;
  await ok(h, 'east', 'POST', 'secret/data/b', { data: { n: 2 } }, h.world.tokenNamed('east', 'root')!);
  await control(h, { wait: '1s' });
  await ok(h, 'west', 'GET', 'sys/replication/dr/status', undefined, westRoot);
  await control(h, { partition: [['east'], ['west']] });
  await control(h, { heal: 'all' });
}

const ids = (fs: { id: string; kind: string; at: number }[]) => fs.map((f) => `${f.kind} ${f.id} at ${f.at}`);

describe('serve --resume: the monitors resume with their state', () => {
  it('gives the same findings as the session that was not stopped, and a lasting hazard once', async () => {
    const straight = await serve({ clusters: ['east', 'west'], clock: 'manual' });
    await failover(straight);
    await afterwards(straight);
    const whole = await straight.stop();

    const dir = mkdtempSync(join(tmpdir(), 'replsim-resume-monitors-'));
    const first = await serve({ clusters: ['east', 'west'], clock: 'manual', out: join(dir, 'out') });
    await failover(first);
    // Stopped without writing its files, as a killed session leaves them (the journal and the history).
    await first.stop();
    const second = await serve({ resume: join(dir, 'out') });
    try {
      expect(second.resumed?.steps).toBeGreaterThan(10);
      await afterwards(second);
      const resumed = await second.stop();
      expect(resumed.stateHash).toBe(whole.stateHash);
      expect(ids(whole.findings).filter((f) => f.includes('two-primaries'))).toHaveLength(1);
      expect(ids(resumed.findings)).toEqual(ids(whole.findings));
      expect(resumed.steps.map((s) => s.findings.length)).toEqual(whole.steps.map((s) => s.findings.length));
    } finally {
      await second.stop();
    }
  }, 60_000);
});

/**
 * Gallery scenario 07 cut after east restarts: two DR primaries of one set, a hazard that lasts
 * into the session served after it.
 */
function servedScenario(dir: string): string {
  const text = readFileSync(join(__dirname, '../../scenarios/07-dr-unplanned-failover.yaml'), 'utf8');
  const cut = text.indexOf('  - name: east says it is a running primary');
  if (cut < 0) throw new Error('scenario 07 changed: its step "east says it is a running primary" is gone');
  const file = join(dir, 'served.yaml');
  writeFileSync(file, text.slice(0, cut));
  return file;
}

describe('serve --resume of a session that served a scenario', () => {
  it('has the scenario\'s steps and findings again, and monitors that saw them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replsim-resume-served-'));
    const scenario = servedScenario(dir);
    const straight = await serve({ scenario, clock: 'manual' });
    const served = straight.session.result().steps.length;
    await afterwards(straight);
    const whole = await straight.stop();
    // The hazard arose in the scenario and lasts through the session: the monitors that saw it arise
    // go on watching, so it is one finding.
    expect(ids(whole.findings).filter((f) => f.includes('two-primaries'))).toHaveLength(1);
    expect(served).toBeGreaterThan(15);

    const first = await serve({ scenario, clock: 'manual', out: join(dir, 'out') });
    await ok(first, 'east', 'POST', 'secret/data/b', { data: { n: 2 } }, first.world.tokenNamed('east', 'root')!);
    await first.stop();
    const second = await serve({ resume: join(dir, 'out') });
    try {
      // What the live view and results.json read: the scenario's steps, then the session's.
      expect(second.session.result().steps.map((s) => s.title).slice(0, served)).toEqual(whole.steps.map((s) => s.title).slice(0, served));
      const westRoot = second.world.tokenNamed('west', 'root')!;
      await control(second, { wait: '1s' });
      await ok(second, 'west', 'GET', 'sys/replication/dr/status', undefined, westRoot);
      await control(second, { partition: [['east'], ['west']] });
      await control(second, { heal: 'all' });
      const resumed = await second.stop();
      expect(resumed.stateHash).toBe(whole.stateHash);
      expect(resumed.steps.map((s) => [s.index, s.title])).toEqual(whole.steps.map((s) => [s.index, s.title]));
      expect(resumed.steps.map((s) => s.findings.length)).toEqual(whole.steps.map((s) => s.findings.length));
      expect(ids(resumed.findings)).toEqual(ids(whole.findings));
      expect(resumed.verdict).toBe(whole.verdict);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
