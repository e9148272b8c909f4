// A run's records are kept compact as it goes and read back one at a time (step-spill.ts), and its
// results.json, report.html and sequence.md are written in pieces from them: the pieces make the
// very text the whole model makes, and the records read back are the records the run made.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportHtml, reportHtmlChunks } from '../../src/report/report-html.js';
import { reportModel, reportStream } from '../../src/report/report-model.js';
import { resultsJson, resultsJsonChunks } from '../../src/report/results.js';
import { sequenceMarkdown, sequenceMarkdownChunks } from '../../src/report/sequence.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario, type RunResult, type StepRecord } from '../../src/scenario/runner.js';
import { parseScenario } from '../../src/scenario/schema.js';
import { SPILL_CHUNK } from '../../src/scenario/step-spill.js';
import { hashOf } from '../../src/kernel/canonical.js';

const GALLERY = join(__dirname, '..', '..', 'scenarios');

async function gallery(file: string): Promise<RunResult> {
  const loaded = loadScenario(readFileSync(join(GALLERY, file), 'utf8'), file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return runScenario(loaded.scenario, { locate: loaded.locate });
}

const run = { seed: 7, started: 'x', stateHash: 'y' } as unknown as Parameters<typeof resultsJson>[2];

describe('files written in pieces', () => {
  // A hazard (07), messages and stores (24), a refusal and a failed expectation kept going (27).
  for (const file of ['07-dr-unplanned-failover.yaml', '24-sync-dr-failover.yaml', '27-dr-runbook-fragile.yaml']) {
    it(`${file}: results.json, report.html and sequence.md are the texts of the whole model`, async () => {
      const r = await gallery(file);
      expect([...resultsJsonChunks(file, r, run)].join('')).toBe(JSON.stringify(resultsJson(file, r, run), null, 2) + '\n');
      const model = reportModel(file, r, 'about it');
      expect([...reportHtmlChunks(reportStream(file, r, 'about it'))].join('')).toBe(reportHtml(model));
      expect([...sequenceMarkdownChunks(reportStream(file, r, 'about it'))].join('')).toBe(sequenceMarkdown(model));
    });
  }

  it('a run of no steps', async () => {
    const parsed = parseScenario({ name: 'nothing', clusters: { east: {} }, steps: [] });
    if (!parsed.success) throw new Error(parsed.error.message);
    const r = await runScenario(parsed.data);
    expect(r.steps.length).toBe(0);
    expect([...resultsJsonChunks('none.yaml', r)].join('')).toBe(JSON.stringify(resultsJson('none.yaml', r), null, 2) + '\n');
    expect([...reportHtmlChunks(reportStream('none.yaml', r))].join('')).toBe(reportHtml(reportModel('none.yaml', r)));
  });
});

describe('a run keeps its records compact and reads them back', () => {
  it('gives back, over several deflated chunks, the records it told onStep of, with their states, events and findings', async () => {
    const n = SPILL_CHUNK * 2 + 40;
    const steps = Array.from({ length: n }, (_, i) => (i === n - 5 ? { crash: 'east' } : { request: `POST secret/data/k${i % 50}`, on: 'east', body: { data: JSON.parse(`{"v":${i},"__proto__":"kept"}`) } }));
    const parsed = parseScenario({ name: 'many', clusters: { east: {} }, steps });
    if (!parsed.success) throw new Error(parsed.error.message);
    const told: { title: string; body: unknown; events: number; after: unknown; findings: unknown[] }[] = [];
    const r = await runScenario(parsed.data, { keepGoing: true, onStep: (s: StepRecord) => told.push({ title: s.title, body: s.request?.body, events: s.events.length, after: s.after, findings: s.findings }) });
    expect(r.steps.length).toBe(n);
    const read = [...r.steps];
    expect(read.map((s) => s.title)).toEqual(told.map((t) => t.title));
    expect(read.map((s) => s.events.length)).toEqual(told.map((t) => t.events));
    // A key named __proto__ in a body comes back as the body's own key, not as its prototype.
    expect(Object.hasOwn((read[3].request!.body as { data: object }).data, '__proto__')).toBe(true);
    expect(read[3].request!.body).toEqual(told[3].body);
    for (const i of [0, 1, SPILL_CHUNK - 1, SPILL_CHUNK, 2 * SPILL_CHUNK + 3, n - 1]) {
      expect(r.steps.at(i)!.index).toBe(i);
      expect(hashOf(r.steps.at(i)!.after)).toBe(hashOf(told[i].after));
    }
    expect(r.steps.at(-1)!.index).toBe(n - 1);
    expect(r.steps.at(n)).toBeUndefined();
    // The states read back are the states the run had after each step.
    expect(hashOf(r.steps.at(n - 1)!.after)).toBe(r.stateHash);
    // Findings are the run's own objects.
    for (const [i, s] of read.entries()) for (const [k, f] of s.findings.entries()) expect(f).toBe(told[i].findings[k]);
    expect(r.findings.every((f) => read.some((s) => s.findings.includes(f)))).toBe(true);
  });
});
