// Every Mermaid diagram replsim generates must render, not only parse on paper: docs/machines.md, the
// tutorial chapters' sequence pictures, and the sequence.md of every gallery scenario are rendered
// with the mermaid library itself in headless Chromium, as a code host does. A parse or layout error
// fails the test with the diagram's name and Mermaid's message. In the state diagrams, no two
// transition labels may be drawn over each other.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { reportModel } from '../../src/report/report-model.js';
import { sequenceMermaid } from '../../src/report/sequence.js';
import { MACHINES, machinesMarkdown } from '../../src/report/diagram.js';
import { browserMissing, CHROMIUM, launch } from './chromium.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MERMAID = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');

/** The fenced ```mermaid blocks of a Markdown text. */
export function mermaidBlocks(text: string): string[] {
  return [...text.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]);
}

interface Rendered {
  error: string | null;
  /** Pairs of transition labels whose boxes overlap (state diagrams). */
  overlaps: string[];
}

/** Renders one diagram in the page; the SVG is put in the document so label boxes can be measured. */
async function render(page: Page, id: string, text: string): Promise<Rendered> {
  return page.evaluate(
    async ([id, text]) => {
      const mermaid = (globalThis as unknown as { mermaid: { render(id: string, t: string): Promise<{ svg: string }> } }).mermaid;
      let svg: string;
      try {
        svg = (await mermaid.render(id, text)).svg;
      } catch (e) {
        return { error: String((e as Error).message ?? e), overlaps: [] };
      }
      const host = document.createElement('div');
      host.innerHTML = svg;
      document.body.replaceChildren(host);
      const boxes = [...host.querySelectorAll('.edgeLabels > g.edgeLabel')]
        .map((e) => ({ text: (e.textContent ?? '').trim(), r: e.getBoundingClientRect() }))
        .filter((b) => b.text !== '' && b.r.width > 0 && b.r.height > 0);
      const overlaps: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const b = boxes[j].r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 2 && h > 2) overlaps.push(`"${boxes[i].text.slice(0, 50)}" over "${boxes[j].text.slice(0, 50)}"`);
        }
      }
      return { error: null, overlaps };
    },
    [id, text] as const,
  );
}

describe.skipIf(browserMissing)(`every generated Mermaid diagram renders (mermaid in ${CHROMIUM})`, () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: MERMAID });
    await page.evaluate(() => (globalThis as unknown as { mermaid: { initialize(o: object): void } }).mermaid.initialize({ startOnLoad: false }));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('fails on a diagram Mermaid cannot read (the check can fail)', async () => {
    const r = await render(page, 'bad', 'stateDiagram-v2\n  [*] --> ready_stream-wals');
    expect(r.error).toMatch(/error/i);
  });

  it('renders docs/machines.md, as generated and as committed, with no transition label over another', async () => {
    const committed = readFileSync(join(ROOT, 'docs', 'machines.md'), 'utf8');
    const blocks = [...mermaidBlocks(machinesMarkdown()), ...mermaidBlocks(committed)];
    expect(blocks.length).toBe(2 * MACHINES.length);
    const failures: string[] = [];
    for (const [k, text] of blocks.entries()) {
      const r = await render(page, `machine${k}`, text);
      if (r.error) failures.push(`diagram ${(k % MACHINES.length) + 1}: ${r.error}`);
      else if (r.overlaps.length) failures.push(`diagram ${(k % MACHINES.length) + 1}: labels overlap: ${r.overlaps.join('; ')}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('renders the sequence picture of every tutorial chapter', async () => {
    const dir = join(ROOT, 'docs', 'tutorial');
    const failures: string[] = [];
    let n = 0;
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
      for (const [k, text] of mermaidBlocks(readFileSync(join(dir, f), 'utf8')).entries()) {
        n++;
        const r = await render(page, `tutorial${n}`, text);
        if (r.error) failures.push(`${f} picture ${k + 1}: ${r.error}`);
      }
    }
    expect(n).toBeGreaterThanOrEqual(8);
    expect(failures).toEqual([]);
  }, 60_000);

  it('renders the sequence.md of every gallery scenario', async () => {
    const dir = join(ROOT, 'scenarios');
    const files = readdirSync(dir).filter((f) => /^\d\d-.+\.yaml$/.test(f)).sort();
    expect(files.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const [k, f] of files.entries()) {
      const loaded = loadScenario(readFileSync(join(dir, f), 'utf8'), `scenarios/${f}`);
      if (!loaded.ok) throw new Error(`scenarios/${f} does not load`);
      const run = await runScenario(loaded.scenario);
      const r = await render(page, `gallery${k}`, sequenceMermaid(reportModel(`scenarios/${f}`, run, loaded.scenario.description)));
      if (r.error) failures.push(`${f}: ${r.error}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
