// The run report in a real browser: headless Chromium opens report.html from a `--out` folder,
// the test moves the slider through every step and reads the rendered topology back from the page,
// which must equal the run's own state at that step; the page must log no console error. The
// gallery's unplanned failover (07) must show two DR primaries at the step where the hazard arises,
// both boxes in alarm, and east primary again in that step's column of the roles; gallery 23 must
// draw the WALs that never reached west and name the lost keys at the promotion.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modeOf } from '../../models/replication-role.machine.js';
import type { SimState } from '../../src/areas/core/state.js';
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

/** Runs a scenario, writes its report, and opens it at 1400x1000, collecting console errors into `errors`. */
async function openReport(file: string, errors: string[]): Promise<{ browser: Browser; page: Page; run: RunResult }> {
  const loaded = loadScenario(readFileSync(file, 'utf8'), file);
  if (!loaded.ok) throw new Error(`${file} does not load`);
  const run = await runScenario(loaded.scenario);
  const dir = mkdtempSync(join(tmpdir(), 'replsim-report-'));
  writeRunFiles(dir, file, run, loaded.scenario.description);
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  return { browser, page, run };
}

describe.skipIf(browserMissing)(`report.html in headless Chromium (${browserMissing ? BROWSER_SKIP_REASON : CHROMIUM})`, () => {
  let browser: Browser;
  let page: Page;
  let run: RunResult;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ browser, page, run } = await openReport(FILE, errors));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows, at every step of the slider, the topology the run had after that step', async () => {
    await slideTo(page, 0);
    expect(await shown(page)).toEqual(expected(run.steps.at(0)!.before));
    for (let step = 1; step <= run.steps.length; step++) {
      await page.keyboard.press('ArrowRight');
      expect(await page.textContent('#position')).toBe(`step ${step} of ${run.steps.length}`);
      expect(await shown(page), `step ${step}`).toEqual(expected(run.steps.at(step - 1)!.after));
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

  it('shows east primary again in the two-primaries step\'s column, after its crashed ones, and both boxes alarm', async () => {
    const at = run.steps.findIndex((s) => s.findings.some((f) => f.id === 'two-primaries')) + 1;
    await slideTo(page, at);
    // The restart takes no virtual time; one column per step still shows the state it produced.
    expect(await page.getAttribute(`[data-cell="east:dr:${at - 1}"]`, 'data-mode')).toBe('crashed');
    expect(await page.getAttribute(`[data-cell="east:dr:${at}"]`, 'data-mode')).toBe('primary');
    expect(await page.getAttribute(`[data-cell="east:dr:${at}"]`, 'data-alarm')).toBe('two-primaries');
    expect(await page.getAttribute(`[data-cell="west:dr:${at}"]`, 'data-alarm')).toBe('two-primaries');
    for (const c of ['east', 'west']) {
      expect(await page.getAttribute(`#topology [data-cluster="${c}"]`, 'data-alarm')).toBe('two-primaries');
      expect(await page.getAttribute(`#topology [data-cluster="${c}"] rect`, 'stroke')).toBe('#d00000');
    }
    // A step before it: no alarm.
    await slideTo(page, 2);
    expect(await page.getAttribute('#topology [data-cluster="east"]', 'data-alarm')).toBe('');
  });

  it('has a column per step on the roles, east going disabled, primary, crashed, primary, secondary', async () => {
    const modes = await page.$$eval('[data-cell^="east:dr:"]', (rs) => rs.map((r) => r.getAttribute('data-mode')));
    expect(modes).toHaveLength(run.steps.length + 1);
    expect(modes.filter((m, i) => i === 0 || m !== modes[i - 1])).toEqual(['disabled', 'primary', 'crashed', 'primary', 'secondary']);
  });

  it('shows a request step as an HTTP line and a curl command, its expectation held, what changed, the response in view at 1400x1000', async () => {
    await slideTo(page, 3);
    const s = run.steps.at(2)!;
    expect((await page.textContent('#http'))?.split('\n')[0]).toBe(`${s.request!.method} /v1/${s.request!.path} HTTP/1.1`);
    expect(await page.textContent('#curl')).toMatch(new RegExp(`^curl -sS -X POST -H "X-Vault-Token: \\$VAULT_TOKEN" -d '\\{"token":"[^']+"\\}' 'http://127\\.0\\.0\\.1:8201/v1/sys/replication/dr/secondary/enable'$`));
    expect(await page.getAttribute('#expect [data-held]', 'data-held')).toBe('true');
    expect(await page.$$eval('#changes li', (ls) => ls.map((l) => l.textContent))).toEqual(expect.arrayContaining(['west: DR disabled → secondary', 'west: follows east (DR)']));
    const box = await page.$eval('#response', (e) => e.getBoundingClientRect().toJSON());
    expect(box.top).toBeGreaterThan(0);
    expect(box.top + 40).toBeLessThan(1000);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('puts the operator and client on lanes of the space-time diagram, every message labelled', async () => {
    const labels = await page.$$eval('#spacetime-svg text.msg-label', (ts) => ts.map((t) => t.textContent ?? ''));
    expect(labels.length).toBe(await page.$$eval('#spacetime-svg line.msg', (ls) => ls.length));
    expect(labels).toEqual(expect.arrayContaining(['connect (DR)', expect.stringMatching(/^initial sync to WAL \d+ \(DR\)$/)]));
    expect(await page.$$eval('[data-lane="operator"]', (ls) => ls.length)).toBeGreaterThan(10);
    expect(await page.$$eval('[data-lane="client"]', (ls) => ls.length)).toBeGreaterThan(0);
  });

  it('zooms the space-time diagram', async () => {
    const width = async () => Number(await page.getAttribute('#spacetime-svg', 'width'));
    const before = await width();
    await page.click('#zoom-in');
    expect(await width()).toBeCloseTo(before * 1.25, 0);
    await page.click('#zoom-out');
    expect(await width()).toBeCloseTo(before, 0);
  });

  it('logs no console error', () => {
    expect(errors).toEqual([]);
  });
});

describe.skipIf(browserMissing)('report.html of gallery 23 (lost writes) in headless Chromium', () => {
  const FILE23 = 'scenarios/23-dr-lost-writes-after-promotion.yaml';
  let browser: Browser;
  let page: Page;
  let run: RunResult;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ browser, page, run } = await openReport(FILE23, errors));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('draws the WALs that never reached west, dropped, with a cross', async () => {
    const lost = await page.$$eval('#spacetime-svg [data-lost]', (gs) => gs.map((g) => g.getAttribute('data-lost')));
    expect(lost).toContain('WALs 3–4 (DR)');
    expect(await page.textContent('[data-lost-label="WALs 3–4 (DR)"]')).toBe('WALs 3–4 (DR) dropped');
  });

  it('names the lost keys at the promotion, in the step panel and on the diagram', async () => {
    const at = run.steps.findIndex((s) => s.findings.some((f) => f.id === 'lost-writes')) + 1;
    expect(run.steps.at(at - 1)!.request?.path).toBe('sys/replication/dr/secondary/promote');
    await slideTo(page, at);
    expect(await page.getAttribute('#step [data-lost-keys]', 'data-lost-keys')).toBe('secret/app/config v2, secret/orders/1001 v1');
    expect(await page.textContent('[data-finding-mark="lost-writes"]')).toContain('lost secret/app/config v2, secret/orders/1001 v1');
  });

  it('shows west lagging, amber, with its lag in WALs and ms, while the link is cut', async () => {
    const at = run.steps.findIndex((s) => s.title === 'wait 10s') + 1;
    await slideTo(page, at);
    expect(await page.getAttribute('#topology [data-cluster="west"]', 'data-alarm')).toBe('lag');
    expect(await page.getAttribute('#topology [data-cluster="west"] [data-lag]', 'data-lag')).toMatch(/^2:\d+$/);
    expect(await page.textContent('#topology [data-cluster="west"] [data-lag]')).toMatch(/^lag 2 WALs, \d+ ms \(DR\)$/);
  });

  it('logs no console error', () => {
    expect(errors).toEqual([]);
  });
});
