// Narration is for people: it says what was asked and answered, the rule behind a refusal and the
// topology changes, and it never prints a secret whole (tokens, OTPs, key shares).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run.js';
import { narrateStep, plain } from '../../src/report/narrate.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario, type RunResult } from '../../src/scenario/runner.js';

const GALLERY = join(__dirname, '..', '..', 'scenarios');

async function run(file: string): Promise<RunResult> {
  const loaded = loadScenario(readFileSync(join(GALLERY, file), 'utf8'), file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return runScenario(loaded.scenario);
}

/** Every secret a run handled: initial root tokens and key shares, and what it saved from secret fields. */
function secretsOf(r: RunResult): string[] {
  const builtins = Object.entries(r.world.variables())
    .filter(([k]) => /\.(root_token|keys\.\d+)$/.test(k))
    .map(([, v]) => v);
  const saved = r.steps.flatMap((s) => Object.entries(s.saved).filter(([k]) => ['token', 'otp', 'encoded_token', 'key'].includes(s.savedFrom[k])).map(([, v]) => String(v)));
  return [...builtins, ...saved].filter((s) => s.length > 12);
}

describe('narration', () => {
  it('never prints a token, OTP or key share whole', async () => {
    const r = await run('02-dr-operation-token.yaml');
    const text = r.steps.flatMap((s) => narrateStep(s, plain)).join('\n');
    const secrets = secretsOf(r);
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('--json output shortens secrets too', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), stdout: {}, env: {} };
    await runCommand([join(GALLERY, '02-dr-operation-token.yaml')], { json: true }, io);
    const r = await run('02-dr-operation-token.yaml');
    for (const secret of secretsOf(r)) expect(out.join('\n')).not.toContain(secret);
  });

  it('names the rule behind a refusal and the topology changes of a step', async () => {
    const r = await run('01-dr-setup.yaml');
    const text = r.steps.flatMap((s) => narrateStep(s, plain)).join('\n');
    expect(text).toMatch(/rule: a DR secondary serves no client request until it is promoted/);
    expect(text).toMatch(/DR disabled → primary/);
    // The status record's own fields, never the machines' state ids.
    expect(text).toMatch(/west: DR status: state idle → stream-wals, connection_state connecting → ready/);
    expect(text).not.toMatch(/not a secondary|secondary\.following|streaming/);
  });
});

describe('narration shows what the lesson is about', () => {
  it('never cuts away the fields a step\'s expect names (14, step 9: the secondary\'s connection_status)', async () => {
    const r = await run('14-dr-forced-promotion.yaml');
    const line = narrateStep(r.steps.at(8)!, plain).find((l) => l.includes('→ 200')) ?? '';
    expect(line).toContain('"secondaries":[{"node_id":"west","connection_status":"disconnected"}]');
    expect(line).toContain('more left out, --verbose shows all');
  });

  it('--verbose prints the whole body, envelope included', async () => {
    const r = await run('14-dr-forced-promotion.yaml');
    const line = narrateStep(r.steps.at(8)!, plain, { verbose: true }).find((l) => l.includes('→ 200')) ?? '';
    const body = JSON.parse(line.slice(line.indexOf('{')));
    expect(body.request_id).toBeDefined();
    expect(body.data.last_wal).toBe(r.steps.at(8)!.saved.eastWal);
    expect(body.data.secondaries[0]).toMatchObject({ node_id: 'west', connection_status: 'disconnected' });
  });

  it('a long body whose step expects nothing is still cut to one short line', async () => {
    const r = await run('14-dr-forced-promotion.yaml');
    const step = r.steps.find((s) => s.response && s.expected === undefined && JSON.stringify(s.response.body).length > 400);
    expect(step).toBeDefined();
    const line = narrateStep(step!, plain).find((l) => l.includes('→ ')) ?? '';
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('replsim run --verbose', () => {
  it('narrates whole bodies', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), stdout: {}, env: {} };
    await runCommand([join(GALLERY, '14-dr-forced-promotion.yaml')], { verbose: true, color: false }, io);
    expect(out.filter((l) => l.includes('"request_id"')).length).toBeGreaterThanOrEqual(10);
    expect(out.some((l) => l.trimStart().startsWith('→') && l.endsWith('…'))).toBe(false);
  });
});
