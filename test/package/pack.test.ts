// The package as another project gets it: `npm pack`, the tarball installed into an empty project
// with no network (`npm ci --offline`: every dependency comes from npm's cache, which this checkout's
// `npm ci` filled), then imported under plain node, type-checked by the consumer's strict tsc with
// `skipLibCheck: false`, and its command run through npx. The pack runs in a copy of the checkout, so
// building does not rewrite this checkout's dist/ under the other tests.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
type LockEntry = { dev?: boolean; [key: string]: unknown };
const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

const scratch = mkdtempSync(join(tmpdir(), 'replsim-pack-'));
const copy = join(scratch, 'checkout');
const consumer = join(scratch, 'consumer');
const tarball = `${pkg.name}-${pkg.version}.tgz`;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking this thread (vitest's worker must keep answering its runner). */
function run(cmd: string, args: string[], cwd: string, timeout = 280_000): Promise<Ran> {
  // The npm_* variables of the `npm test` running this (its prefix, its package) would steer the
  // child npm to this checkout: leave them out, but for where the cache and the user's settings are.
  const kept = /^npm_config_(cache|userconfig|registry)$/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || kept.test(k)));
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, timeout, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function ok(ran: Promise<Ran>, what: string): Promise<Ran> {
  const r = await ran;
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/**
 * The consumer's lockfile: replsim from the tarball, and for its dependencies the very entries of this
 * checkout's lockfile that are not devDependencies (name, version, integrity: what `npm ci --offline`
 * finds in the cache), plus typescript and @types/node for the consumer's own type-check.
 */
function consumerLock(): { manifest: object; lock: object } {
  const devDependencies = { typescript: pkg.devDependencies.typescript, '@types/node': pkg.devDependencies['@types/node'] };
  const manifest = { name: 'consumer', version: '1.0.0', type: 'module', private: true, dependencies: { [pkg.name]: `file:${tarball}` }, devDependencies };
  const packages: Record<string, object> = { '': manifest };
  packages[`node_modules/${pkg.name}`] = { version: pkg.version, resolved: `file:${tarball}`, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines };
  for (const [path, entry] of Object.entries(repoLock.packages)) if (path !== '' && !entry.dev) packages[path] = entry;
  for (const name of ['typescript', '@types/node', 'undici-types']) packages[`node_modules/${name}`] = repoLock.packages[`node_modules/${name}`];
  return { manifest, lock: { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages } };
}

let installOutput = '';
beforeAll(async () => {
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'scripts', 'src', 'models', 'scenarios']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  mkdirSync(consumer);
  // `npm pack` runs `prepack`: scripts/build.mjs builds the bundles and the declarations.
  await ok(run('npm', ['pack', '--pack-destination', consumer, '--offline'], copy), 'npm pack');
  const { manifest, lock } = consumerLock();
  writeFileSync(join(consumer, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const installed = await ok(run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], consumer), 'npm ci --offline (the consumer)');
  installOutput = installed.stdout + installed.stderr;
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm pack, installed into an empty project offline', () => {
  it('ships compiled JavaScript and declarations, no sources, and installs without tsx or an install-script warning', () => {
    const installed = join(consumer, 'node_modules', pkg.name);
    expect(existsSync(join(installed, 'dist', 'lib', 'index.mjs'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'types', 'src', 'entry', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(consumer, 'node_modules', 'tsx'))).toBe(false);
    expect(installOutput).not.toMatch(/install-scripts|allowScripts/);
    // npm counts these as install scripts of a dependency (prepare too, from a tarball or a checkout),
    // and warns the consumer about each one it has not approved.
    const { scripts = {} } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(scripts).filter((k) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(k))).toEqual([]);
  });

  it("import { createWorld, runScenario } from 'replsim' runs under plain node", async () => {
    writeFileSync(
      join(consumer, 'use.mjs'),
      `import { createWorld, loadScenario, runScenario, serve } from 'replsim';
const world = createWorld(['east', 'west'], { seed: 7 });
const enabled = world.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: 'root' });
const loaded = loadScenario('name: x\\nclusters: { east: {} }\\nsteps: [ { wait: 1s } ]\\n', 'x.yaml');
const run = await runScenario(loaded.scenario);
const server = await serve({ clusters: ['east'], clock: 'manual' });
const health = await fetch(server.clusters.east.url + '/v1/sys/health');
const stopped = await server.stop();
console.log(JSON.stringify({ enabled: enabled.status, run: run.verdict, health: health.status, stopped: stopped.verdict }));
`,
    );
    const r = await ok(run(process.execPath, ['use.mjs'], consumer, 60_000), 'node use.mjs');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ enabled: 200, run: 'valid', health: 200, stopped: 'valid' });
  });

  it("a consumer's TypeScript type-checks against the declarations under strict tsc with skipLibCheck: false", async () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      `import { createWorld, loadScenario, runScenario, WorldUsageError, type ApiResponse, type RunResult } from 'replsim';
const world = createWorld(['east', 'west'], { seed: 7 });
const answer: ApiResponse = world.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: 'root' });
const loaded = loadScenario('name: x\\nclusters: { east: {} }\\nsteps: [ { wait: 1s } ]\\n', 'x.yaml');
if (loaded.ok) {
  const run: RunResult = await runScenario(loaded.scenario);
  console.log(run.verdict, answer.status);
} else {
  console.log(loaded.errors.length);
}
export const misuse: Error = new WorldUsageError('x');
// A wrong use must still be caught: the declarations are not any.
// @ts-expect-error a cluster name is a string
world.request(1, { method: 'GET', path: 'sys/health' });
`,
    );
    // No "types": Node's come in through replsim's own reference to them, as for any consumer.
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: [] }, files: ['use.ts'] }),
    );
    const r = await ok(run(process.execPath, [join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--listFiles'], consumer), 'tsc -p . (the consumer)');
    const replsimFiles = r.stdout.split('\n').filter((f) => f.includes(`node_modules/${pkg.name}/`));
    expect(replsimFiles.length).toBeGreaterThan(0);
    expect(replsimFiles.filter((f) => !f.endsWith('.d.ts'))).toEqual([]);
    // skipLibCheck: false checks every declaration file, Node's included: some 15 s of CPU.
  }, 300_000);

  it('npx replsim run works from the install', async () => {
    const r = await run('npx', ['--offline', '--no', '--', 'replsim', 'run', `node_modules/${pkg.name}/scenarios/01-dr-setup.yaml`, '--quiet'], consumer, 60_000);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await run('npx', ['--offline', '--no', '--', 'replsim', '--version'], consumer, 60_000)).stdout.trim()).toBe(pkg.version);
  });
});
