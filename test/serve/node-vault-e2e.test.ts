// End to end, as an operator rehearses: `replsim serve --clusters east,west` on free ports, the
// node-vault client library (unchanged, talking HTTP) sets up DR between the two clusters, writes a
// secret on the primary, fails over to the secondary (the primary crashed through the control
// listener; the secondary promoted with a DR operation token generated from key shares), and reads
// the secret on the promoted cluster. The `--record` file then replays with `replsim run` to the
// same verdict and the same world (state hash).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeToken } from '../../src/areas/core/crypto/otp.js';

const require = createRequire(import.meta.url);
// node-vault is CommonJS: a factory taking { endpoint, token }.
const vault = require('node-vault') as (o: { endpoint: string; token?: string }) => any;

const BIN = join(__dirname, '..', '..', 'bin', 'replsim.js');
const dir = mkdtempSync(join(tmpdir(), 'replsim-serve-'));
const recordFile = join(dir, 'rehearsal.yaml');
const outDir = join(dir, 'out');

interface Served {
  child: ChildProcessWithoutNullStreams;
  urls: Record<string, string>;
  tokens: Record<string, string>;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** Starts `replsim serve` and resolves once it prints where it listens. */
function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening (\{.*\})$/m);
      if (!m) return;
      const tokens: Record<string, string> = {};
      for (const t of out.matchAll(/^# (\w+): (\S+).*\nexport VAULT_ADDR=\S+ VAULT_TOKEN=(\S+)$/gm)) tokens[t[1]] = t[3];
      resolve({ child, urls: JSON.parse(m[1]), tokens, stdout: () => out, exited });
    });
    exited.then((code) => reject(new Error(`replsim serve exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

/** The control listener's secret, as the banner prints it. */
function ctl(): Record<string, string> {
  const secret = served?.stdout().match(/REPLSIM_CTL_SECRET=(\S+)/)?.[1];
  if (!secret) throw new Error('replsim serve printed no control secret');
  return { Authorization: `Bearer ${secret}` };
}

async function control(url: string, step: unknown): Promise<any> {
  const res = await fetch(`${url}/v1/step`, { method: 'POST', body: JSON.stringify(step), headers: ctl() });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`control ${JSON.stringify(step)}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

let served: Served | undefined;
afterAll(() => {
  if (served && served.child.exitCode === null) served.child.kill('SIGKILL');
});

describe('replsim serve with the node-vault client', () => {
  it('sets up DR, fails over through the control listener, and finds the secret on the promoted cluster; the recording replays', async () => {
    served = await startServe(['--clusters', 'east,west', '--port', '0', '--clock', 'manual', '--record', recordFile, '--out', outDir]);
    const { urls, tokens } = served;
    const east = vault({ endpoint: urls.east, token: tokens.east });
    const west = vault({ endpoint: urls.west, token: tokens.west });
    const status = await (await fetch(`${urls.control}/v1/status`, { headers: ctl() })).json();
    const eastKeys: string[] = status.clusters.east.keys;

    expect(await east.health()).toMatchObject({ initialized: true, sealed: false, replication_dr_mode: 'disabled' });

    // DR between the two: east primary, west secondary activated with east's token.
    await east.write('sys/replication/dr/primary/enable', {});
    const issued = await east.write('sys/replication/dr/primary/secondary-token', { id: 'west' });
    const activationToken: string = issued.wrap_info.token;
    expect(activationToken.split('.')).toHaveLength(3);
    expect((await east.write('sys/wrapping/lookup', { token: activationToken })).data).toMatchObject({ creation_path: 'sys/replication/dr/primary/secondary-token' });
    await west.write('sys/replication/dr/secondary/enable', { token: activationToken });
    await control(urls.control, { wait: '10s' });
    // node-vault hands back sys/health's body whatever its status: 472 means a DR secondary.
    expect(await west.health()).toMatchObject({ replication_dr_mode: 'secondary' });
    expect((await fetch(`${urls.west}/v1/sys/health`)).status).toBe(472);
    expect((await west.read('sys/replication/dr/status')).data).toMatchObject({ mode: 'secondary', state: 'stream-wals', connection_state: 'ready' });

    // A secret on the primary, streamed to the secondary.
    await east.write('secret/data/payments', { data: { api_key: 'k-123' } });
    await control(urls.control, { wait: '5s' });
    // node-vault lists with the HTTP method LIST.
    expect((await east.list('secret/metadata/')).data.keys).toEqual(['payments']);

    // The primary is lost.
    await control(urls.control, { crash: 'east' });
    await expect(east.read('secret/data/payments')).rejects.toMatchObject({ response: { statusCode: 503 } });

    // A DR operation token from the key shares (a DR secondary holds its primary's keyring), then promote.
    const attempt = await west.write('sys/replication/dr/secondary/generate-operation-token/attempt', {});
    let last: any;
    for (const key of eastKeys.slice(0, 3)) last = await west.write('sys/replication/dr/secondary/generate-operation-token/update', { key, nonce: attempt.nonce });
    expect(last).toMatchObject({ complete: true });
    const drOperationToken = decodeToken(last.encoded_token, attempt.otp);
    await west.write('sys/replication/dr/secondary/promote', { dr_operation_token: drOperationToken });
    await control(urls.control, { wait: '2s' });

    // The promoted cluster serves the secret to the primary's token, which DR replicated.
    const promoted = vault({ endpoint: urls.west, token: tokens.east });
    expect((await promoted.read('secret/data/payments')).data.data).toEqual({ api_key: 'k-123' });
    expect((await promoted.tokenLookupSelf()).data).toMatchObject({ policies: ['root'] });
    expect(await promoted.health()).toMatchObject({ replication_dr_mode: 'primary' });

    // SIGINT: stop, write the recording and the run files, exit 0.
    served.child.kill('SIGINT');
    expect(await served.exited).toBe(0);
    expect(served.stdout()).toMatch(/verdict valid/);
    const results = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8'));
    expect(results.valid).toBe(true);
    expect(existsSync(join(outDir, 'history.jsonl'))).toBe(true);
    expect(existsSync(join(outDir, 'report.html'))).toBe(true);

    // The recording names secrets by variable, never by value.
    const recording = readFileSync(recordFile, 'utf8');
    for (const secret of [activationToken, drOperationToken, tokens.east, attempt.otp, eastKeys[0]]) expect(recording).not.toContain(secret);
    expect(recording).toContain('${east.root_token}');
    expect(recording).toContain('decode-token');

    // Replayed with `replsim run`: the same verdict, and the very same world.
    const replayOut = join(dir, 'replay');
    const run = spawnSync(process.execPath, [BIN, 'run', recordFile, '--out', replayOut, '-q'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
    const replayed = JSON.parse(readFileSync(join(replayOut, 'results.json'), 'utf8'));
    expect(replayed.verdict).toBe(results.verdict);
    expect(replayed.stateHash).toBe(results.stateHash);
  });
});
