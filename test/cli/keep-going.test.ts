// `replsim run --keep-going`: a learner who changed one step of a gallery scenario sees the rest of
// it. Every step runs; each failed expectation is reported (narration, reasons, results.json) and the
// verdict stays invalid (exit 1). Without the flag the run stops at the first failed step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, type Io } from '../../src/cli/run.js';
import { scratch } from './helpers.js';

const s = scratch('replsim-keep-going-');

function memoryIo() {
  const out: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => out.push(l), stdout: {}, env: {} };
  return { io, out };
}

// Gallery 02 with step 21's DR operation token replaced by east's root token (the chapter's exercise).
const changed = readFileSync(join(import.meta.dirname, '..', '..', 'scenarios', '02-dr-operation-token.yaml'), 'utf8').replace(
  'body: { dr_operation_token: "${drToken}" }\n    expect:\n      status: 200',
  'body: { dr_operation_token: "${east.root_token}" }\n    expect:\n      status: 200',
);

describe('replsim run --keep-going', () => {
  it('the file really changes one step', () => {
    expect(changed).toContain('"${east.root_token}" }\n    expect:\n      status: 200');
  });

  it('without it, the run stops at the changed step', async () => {
    const { io, out } = memoryIo();
    const code = await runCommand([s.file('stop.yaml', changed)], {}, io);
    expect(code).toBe(1);
    expect(out.join('\n')).toMatch(/INVALID: 21 steps \(3 not run\)/);
  });

  it('with it, every step runs, the failure is reported and the verdict stays invalid', async () => {
    const { io, out } = memoryIo();
    const dir = join(s.dir, 'out');
    const code = await runCommand([s.file('go.yaml', changed)], { keepGoing: true, out: dir }, io);
    expect(code).toBe(1);
    const text = out.join('\n');
    expect(text).toMatch(/INVALID: 24 steps, 0 hazards/);
    expect(text).toMatch(/step 21 \(line \d+\), POST sys\/replication\/dr\/secondary\/merkle-check on west, failed: expected status 200, got 400: invalid DR operation token/);
    expect(text).toMatch(/^24\. /m);
    expect(text).toMatch(/--seed 2 --keep-going/);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.verdict).toBe('invalid');
    expect(results.steps).toHaveLength(24);
    expect(results.skipped).toBe(0);
    expect(results.steps.filter((st: { ok: boolean }) => !st.ok).map((st: { index: number }) => st.index)).toEqual([21]);
  });
});
