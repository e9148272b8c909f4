// The README's curl flow (the block after `<!-- serve-curl-flow -->`) runs as printed: bash, curl,
// jq and `npx replsim`, on free ports instead of 8200-8202 and in a temporary folder. `npx replsim`
// resolves to this checkout's command (checked once, by npx itself); in the flow, a `npx` first on
// the PATH runs that command directly, without npm's own start-up (a second and more of CPU, ten
// times over).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const tools = ['bash', 'curl', 'jq'].every(has);

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Three consecutive free ports on 127.0.0.1. */
async function freePorts(): Promise<number> {
  for (let base = 20_000 + (process.pid % 20_000); ; base += 7) {
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2))) return base;
  }
}

describe('README: the DR failover with curl', () => {
  it.skipIf(!tools)('runs as printed and ends with the secret on the promoted cluster and a valid replay', async () => {
    const block = /<!-- serve-curl-flow -->\n```sh\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const base = await freePorts();
    const dir = mkdtempSync(join(tmpdir(), 'replsim-readme-'));
    const script = block![1]
      .replaceAll('serve --clusters', `serve --port ${base} --clusters`)
      .replaceAll('127.0.0.1:8200', `127.0.0.1:${base}`)
      .replaceAll('127.0.0.1:8201', `127.0.0.1:${base + 1}`)
      .replaceAll('127.0.0.1:8202', `127.0.0.1:${base + 2}`)
      .replaceAll('rehearsal.yaml', join(dir, 'rehearsal.yaml'))
      .replaceAll('out/', join(dir, 'out') + '/');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const npx = spawnSync('npx', ['--no', '--', 'replsim', '--version'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(npx.stdout.trim()).toBe(pkg.version);
    const shims = join(dir, 'bin');
    mkdirSync(shims);
    const bin = join(root, 'bin', 'replsim.js');
    writeFileSync(join(shims, 'npx'), `#!/bin/sh\n[ "$1" = replsim ] || { echo "npx shim: only replsim" >&2; exit 2; }\nshift\nexec '${process.execPath}' '${bin}' "$@"\n`);
    chmodSync(join(shims, 'npx'), 0o755);
    // Asynchronously: a synchronous child would block the test worker for the whole flow.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-e', '-c', script], { cwd: root, env: { ...process.env, NO_COLOR: '1', PATH: `${shims}:${process.env.PATH}` } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
    if (r.status !== 0) {
      console.error(r.stderr);
      // The flow stopped half-way: end the server it started in the background.
      await fetch(`http://127.0.0.1:${base + 2}/v1/stop`, { method: 'POST' }).catch(() => undefined);
    }
    expect(r.stdout).toContain('west health: 472');
    expect(r.stdout).toContain('{"api_key":"k-123"}');
    expect(r.stdout).toMatch(/verdict valid/);
    expect(r.stdout).toMatch(/^VALID: /m);
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'out', 'results.json'))).toBe(true);
    expect(readFileSync(join(dir, 'rehearsal.yaml'), 'utf8')).toContain('decode-token');
  });
});
