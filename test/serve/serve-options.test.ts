// `serve` with a scenario given first, and the mistakes a user can make starting it: each a clear
// error naming the cause, nothing served.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { serve, ServeError } from '../../src/serve/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'replsim-serve-opts-'));
const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');

const setup = join(dir, 'setup.yaml');
writeFileSync(
  setup,
  `name: DR pair, set up
seed: 5
clusters:
  east: {}
  west: {}
steps:
  - request: POST sys/replication/dr/primary/enable
    on: east
  - request: POST sys/replication/dr/primary/secondary-token
    on: east
    body: { id: west }
    save: { westToken: wrap_info.token }
  - request: POST sys/replication/dr/secondary/enable
    on: west
    body: { token: "\${westToken}" }
  - wait: 10s
`,
);

describe('serve SCENARIO: the scenario runs first, then its world is served', () => {
  it('serves the world the scenario built; the recording starts with its steps and replays to the same world', async () => {
    const h = await serve({ scenario: setup, clock: 'manual' });
    try {
      const status = await fetch(`${h.clusters.west.url}/v1/sys/replication/dr/status`);
      expect((await status.json()).data).toMatchObject({ mode: 'secondary', connection_state: 'ready' });
      const root = h.world.tokenNamed('east', 'root')!;
      expect((await fetch(`${h.clusters.east.url}/v1/secret/data/a`, { method: 'POST', body: '{"data":{"x":1}}', headers: { 'X-Vault-Token': root } })).status).toBe(200);
    } finally {
      await h.stop();
    }
    const yaml = h.session.scenarioYaml();
    expect(yaml).toMatch(/^name: DR pair, set up$/m);
    expect(yaml).toMatch(/^seed: 5$/m);
    const loaded = loadScenario(yaml, 'recording.yaml');
    if (!loaded.ok) throw new Error(loaded.errors[0].message);
    expect(loaded.scenario.steps).toHaveLength(6);
    const replay = await runScenario(loaded.scenario);
    expect(replay.verdict).toBe('valid');
    expect(replay.stateHash).toBe(h.world.stateHash());
    // results.json of the session lists the scenario's steps and the served ones.
    expect((await h.stopped).steps).toHaveLength(6);
  });

  it('a scenario whose steps fail is not served, and says which step', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: x\nclusters: { east: {} }\nsteps:\n  - request: GET secret/data/nothing\n    on: east\n');
    await expect(serve({ scenario: bad })).rejects.toThrow(/step 1\b.*expected a 2xx answer, got 404/);
  });
});

describe('starting mistakes are errors naming the cause', () => {
  it('an invalid scenario file names file, line and key', async () => {
    const bad = join(dir, 'invalid.yaml');
    writeFileSync(bad, 'name: x\nclusters: { east: {} }\nsteps:\n  - crsh: east\n');
    await expect(serve({ scenario: bad })).rejects.toThrow(/invalid\.yaml:4:\d+: .*"crsh"/);
  });

  it('both a scenario and --clusters, a bad cluster name, a name twice', async () => {
    await expect(serve({ scenario: setup, clusters: ['a'] })).rejects.toThrow(ServeError);
    await expect(serve({ clusters: ['East'] })).rejects.toThrow(/cluster name "East"/);
    await expect(serve({ clusters: ['a', 'a'] })).rejects.toThrow(/twice/);
  });

  it('a port in use is named, and nothing is left listening', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      await expect(serve({ clusters: ['east'], port })).rejects.toThrow(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
    } finally {
      blocker.close();
    }
  });

  it('the CLI exits 2 on a bad option, naming it', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve', '--clock', 'fast'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--clock must be wall or manual, got "fast"/);
  });
});
