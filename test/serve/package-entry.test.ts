// The package's programmatic entry, imported by name as another project would (`import … from
// 'replsim'`, resolved through package.json `exports`), in a separate Node process.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

const consumer = `
import { createWorld, loadScenario, runScenario, serve } from 'replsim';
const world = createWorld(['east', 'west'], { seed: 7 });
const root = world.tokenNamed('east', 'root');
const enabled = world.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: root });
const server = await serve({ clusters: ['east'], clock: 'manual' });
const health = await fetch(server.clusters.east.url + '/v1/sys/health');
const stopped = await server.stop();
const loaded = loadScenario('name: x\\nclusters: { east: {} }\\nsteps: [ { wait: 1s } ]\\n', 'x.yaml');
const run = await runScenario(loaded.scenario);
console.log(JSON.stringify({ enabled: enabled.status, health: health.status, stopped: stopped.verdict, run: run.verdict }));
`;

describe("import { createWorld, loadScenario, runScenario, serve } from 'replsim'", () => {
  it('resolves through package.json exports and works in-process and over HTTP', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', consumer], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ enabled: 200, health: 200, stopped: 'valid', run: 'valid' });
  });
});
