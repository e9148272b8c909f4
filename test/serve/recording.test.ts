// What `serve --record` writes, read as an operator reads it and replayed as CI would: a session in
// which an unplanned DR failover met two-primaries is written with the verdict it had
// (`expect: { hazard: two-primaries }`), a name per step in the endpoint's words, the key fields of
// status reads as `expect`, refused requests as comment lines; `replsim run` replays it with exit 0
// to the same world. The recording knows its end: a copy cut after any step is refused with the
// line where it stops. A request key named `__proto__` replays.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToken } from '../../src/areas/core/crypto/otp.js';
import { formatScenarioError, loadScenario } from '../../src/scenario/loader.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';

const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');
const dir = mkdtempSync(join(tmpdir(), 'replsim-recording-'));

let h: ServeHandle;
let yaml: string;
let stateHash: string;

async function call(cluster: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${h.clusters[cluster].url}/v1/${path}`, { method, body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body), headers: token ? { 'X-Vault-Token': token } : {} });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

async function step(s: unknown): Promise<void> {
  const r = await fetch(`${h.control.url}/v1/step`, { method: 'POST', body: JSON.stringify(s), headers: { Authorization: `Bearer ${h.control.secret}` } });
  if (r.status !== 200) throw new Error(`control ${JSON.stringify(s)}: ${r.status} ${await r.text()}`);
}

beforeAll(async () => {
  h = await serve({ clusters: ['east', 'west'], clock: 'manual' });
  const eastRoot = h.world.tokenNamed('east', 'root')!;
  const westRoot = h.world.tokenNamed('west', 'root')!;
  expect((await call('east', 'POST', 'sys/replication/dr/primary/enable', {}, eastRoot)).status).toBe(200);
  const token = (await call('east', 'POST', 'sys/replication/dr/primary/secondary-token', { id: 'west' }, eastRoot)).body.wrap_info.token;
  expect((await call('west', 'POST', 'sys/replication/dr/secondary/enable', { token }, westRoot)).status).toBe(200);
  // A KV value holding a key named __proto__: the service stores it as a plain key.
  expect((await call('east', 'POST', 'secret/data/odd', '{"data": {"a": {"__proto__": "v"}}}', eastRoot)).status).toBe(200);
  await step({ wait: '2s' });
  expect((await call('west', 'GET', 'sys/replication/dr/status')).body.data.connection_state).toBe('ready');
  // Refused: a client request on a DR secondary, and a typo.
  expect((await call('west', 'GET', 'secret/data/odd', undefined, westRoot)).status).toBeGreaterThanOrEqual(400);
  expect((await call('east', 'POST', 'sys/replication/dr/primary/enabel', {}, eastRoot)).status).toBe(404);
  await step({ crash: 'east' });
  await step({ wait: '5s' });
  const attempt = (await call('west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/attempt', {})).body;
  let encoded = '';
  for (const i of [0, 1, 2]) encoded = (await call('west', 'POST', 'sys/replication/dr/secondary/generate-operation-token/update', { key: h.world.state.operators.east.keys[i], nonce: attempt.nonce })).body.encoded_token ?? encoded;
  const op = decodeToken(encoded, attempt.otp);
  expect((await call('west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: op })).status).toBe(200);
  await step({ restart: 'east' });
  expect((await call('east', 'GET', 'sys/replication/dr/status')).body.data.mode).toBe('primary');
  const result = await h.stop();
  expect(result.findings.map((f) => f.id)).toContain('two-primaries');
  stateHash = result.stateHash;
  yaml = h.session.scenarioYaml();
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe('a recorded session that met two-primaries', () => {
  it('expects the hazard it met, names each step after its endpoint, and expects the key fields of status reads', () => {
    const doc = parse(yaml);
    expect(doc.expect).toEqual({ hazard: 'two-primaries' });
    const requests = doc.steps.filter((s: any) => s.request);
    for (const s of requests) expect(typeof s.name, s.request).toBe('string');
    expect(requests[0]).toMatchObject({ name: 'enable DR replication as a primary', request: 'POST sys/replication/dr/primary/enable' });
    const statusReads = requests.filter((s: any) => s.request === 'GET sys/replication/dr/status');
    expect(statusReads[0].expect).toEqual({ status: 200, data: { mode: 'secondary', state: 'stream-wals', connection_state: 'ready' } });
    expect(statusReads[statusReads.length - 1].expect).toMatchObject({ status: 200, data: { mode: 'primary', state: 'running' } });
  });

  it('keeps a request key named __proto__ as a plain key, which the replay sends again', () => {
    const write = parse(yaml).steps.find((s: any) => s.request === 'POST secret/data/odd');
    expect(Object.getOwnPropertyNames(write.body.data.a)).toEqual(['__proto__']);
    expect(yaml).toMatch(/^ {10}__proto__: v$/m);
  });

  it('writes refused requests as comment lines with the refusal, not as steps', () => {
    expect(yaml).toMatch(/^ {2}# refused \(404\): POST sys\/replication\/dr\/primary\/enabel on east/m);
    expect(yaml).toMatch(/^ {2}# refused \(\d{3}\): GET secret\/data\/odd on west: /m);
    expect(parse(yaml).steps.some((s: any) => String(s.request).endsWith('enabel'))).toBe(false);
  });

  it('replays with replsim run: exit 0, the same world', () => {
    const file = join(dir, 'two-primaries.yaml');
    writeFileSync(file, yaml);
    const r = spawnSync(process.execPath, [BIN, 'run', file, '--json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const verdict = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(verdict).toMatchObject({ verdict: 'valid', stateHash });
  });
});

describe('a recording knows its end', () => {
  it('opens with its step count and closes with the same count', () => {
    const steps = parse(yaml).steps.length;
    expect(yaml.split('\n')[0]).toMatch(new RegExp(`^# replsim-recording/1: ${steps} steps`));
    expect(yaml.endsWith(`# end of recording: ${steps} steps\n`)).toBe(true);
    expect(loadScenario(yaml, 'intact.yaml').ok).toBe(true);
  });

  it('cut after any step (or inside one) is refused, naming the line where it stops', () => {
    const lines = yaml.split('\n');
    const stepStarts = lines.flatMap((l, i) => (/^ {2}- /.test(l) ? [i] : []));
    const cuts = [...stepStarts.slice(1), lines.length - 2, Math.floor(lines.length / 2)];
    for (const cut of cuts) {
      const text = lines.slice(0, cut).join('\n') + '\n';
      const r = loadScenario(text, 'cut.yaml');
      expect(r.ok, `cut before line ${cut + 1}`).toBe(false);
      if (r.ok) continue;
      let last = cut - 1;
      while (lines[last].trim() === '') last--;
      expect(formatScenarioError(r.errors[0])).toMatch(new RegExp(`^cut\\.yaml:${last + 1}:1: the recording stops here: no closing line`));
    }
  });

  it('a step removed or added is refused too, and deleting the first line makes it an ordinary scenario', () => {
    const lines = yaml.split('\n');
    const starts = lines.flatMap((l, i) => (/^ {2}- /.test(l) ? [i] : []));
    const wait = starts.findIndex((i) => lines[i].startsWith('  - wait: '));
    const removed = [...lines.slice(0, starts[wait]), ...lines.slice(starts[wait + 1])].join('\n');
    const r = loadScenario(removed, 'edited.yaml');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toMatch(/announces \d+ steps but holds \d+: steps were removed/);
    expect(loadScenario(lines.slice(1).join('\n'), 'plain.yaml').ok).toBe(true);
  });
});
