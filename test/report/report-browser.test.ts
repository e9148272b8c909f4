// The run report in a real browser: headless Chromium opens report.html from a `--out` folder,
// the test moves the slider through every step and reads the rendered topology back from the page,
// which must equal the run's own state at that step; the page must log no console error. The
// gallery's unplanned failover (07) must show two DR primaries at the step where the hazard arises,
// and the crash and restart of east on the role timeline.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modeOf } from '../../models/replication-role.machine.js';
import type { SimState } from '../../src/areas/cluster/state.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario, type RunResult } from '../../src/scenario/runner.js';
import { writeRunFiles } from '../../src/report/results.js';
import { BROWSER_SKIP_REASON, browserMissing, CHROMIUM, launch } from './chromium.js';

const FILE = 'scenarios/07-dr-unplanned-failover.yaml';

/** What the page must show for one cluster at a step, computed here from the run's state. */
function expected(state: SimState) {
  return [...state.clusters.names]
    .sort()
    .map((name) => ({
      name,
      dr: modeOf(state.clusters.named(name).replication.dr.role),
      performance: modeOf(state.clusters.named(name).replication.performance.role),
      crashed: state.network.down[name] === true,
    }));
}

async function shown(page: Page) {
  return page.$$eval('#topology [data-cluster]', (gs) =>
    gs.map((g) => ({
      name: g.getAttribute('data-cluster'),
      dr: g.getAttribute('data-dr'),
      performance: g.getAttribute('data-performance'),
      crashed: g.getAttribute('data-crashed') === 'true',
    })),
  );
}

/** Moves the slider as a person does with the keyboard: focus it, Home, then one arrow press per step. */
async function slideTo(page: Page, step: number) {
  await page.focus('#slider');
  await page.keyboard.press('Home');
  for (let k = 0; k < step; k++) await page.keyboard.press('ArrowRight');
}

describe.skipIf(browserMissing)(`report.html in headless Chromium (${browserMissing ? BROWSER_SKIP_REASON : CHROMIUM})`, () => {
  let browser: Browser;
  let page: Page;
  let run: RunResult;
  const errors: string[] = [];

  beforeAll(async () => {
    const loaded = loadScenario(readFileSync(FILE, 'utf8'), FILE);
    if (!loaded.ok) throw new Error(`${FILE} does not load`);
    run = await runScenario(loaded.scenario);
    const dir = mkdtempSync(join(tmpdir(), 'replsim-report-'));
    writeRunFiles(dir, FILE, run, loaded.scenario.description);
    browser = await launch();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows, at every step of the slider, the topology the run had after that step', async () => {
    await slideTo(page, 0);
    expect(await shown(page)).toEqual(expected(run.steps[0].before));
    for (let step = 1; step <= run.steps.length; step++) {
      await page.keyboard.press('ArrowRight');
      expect(await page.textContent('#position')).toBe(`step ${step} of ${run.steps.length}`);
      expect(await shown(page), `step ${step}`).toEqual(expected(run.steps[step - 1].after));
    }
  });

  it('shows two DR primaries of one set at the step where two-primaries arises, with the hazard named', async () => {
    const at = run.steps.findIndex((s) => s.findings.some((f) => f.id === 'two-primaries'));
    expect(at).toBeGreaterThan(0);
    await slideTo(page, at + 1);
    const clusters = await shown(page);
    expect(clusters.filter((c) => c.dr === 'primary' && !c.crashed).map((c) => c.name)).toEqual(['east', 'west']);
    expect(await page.textContent('#step [data-finding="two-primaries"]')).toContain('hazard two-primaries');
    expect(await page.getAttribute(`#steps li[data-i="${at + 1}"]`, 'class')).toContain('hazard');
  });

  it('draws the crash and the restart of east on the role timeline, between two primary spans', async () => {
    const spans = await page.$$eval('[data-span^="east:dr:"]', (rs) => rs.map((r) => r.getAttribute('data-span')));
    expect(spans).toEqual(['east:dr:disabled', 'east:dr:primary', 'east:dr:crashed', 'east:dr:primary', 'east:dr:secondary']);
  });

  it('draws every message of the log on the space-time diagram, each with a hover text', async () => {
    const titles = await page.$$eval('#spacetime-svg line.msg title', (ts) => ts.map((t) => t.textContent ?? ''));
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.some((t) => t.startsWith('initial sync to WAL') && t.includes('east → west'))).toBe(true);
  });

  it('logs no console error', () => {
    expect(errors).toEqual([]);
  });
});
