// Regenerates the report screenshots in docs/img/ (the README shows one): each gallery scenario
// below is run, its report.html opened in headless Chromium at the step named, and the page captured.
// Run with `npx tsx scripts/screenshots.ts` after a change to the report; never edit the images by hand.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';
import { writeRunFiles } from '../src/report/results.js';
import { launch } from '../test/report/chromium.js';

/** Scenario, and the step to show: the first hazard, or the last step. */
const SHOTS = [
  { file: 'scenarios/07-dr-unplanned-failover.yaml', image: 'docs/img/report-07-dr-unplanned-failover.png' },
  { file: 'scenarios/03-dr-planned-failover.yaml', image: 'docs/img/report-03-dr-planned-failover.png' },
  { file: 'scenarios/12-perf-dr-secondary-joins-set.yaml', image: 'docs/img/report-12-perf-dr-secondary-joins-set.png' },
];

const browser = await launch();
try {
  for (const shot of SHOTS) {
    const loaded = loadScenario(readFileSync(shot.file, 'utf8'), shot.file);
    if (!loaded.ok) throw new Error(`${shot.file} does not load`);
    const run = await runScenario(loaded.scenario);
    const dir = mkdtempSync(join(tmpdir(), 'replsim-shot-'));
    writeRunFiles(dir, shot.file, run, loaded.scenario.description);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.screenshot({ path: shot.image, fullPage: false });
    await page.close();
    console.log(`wrote ${shot.image}`);
  }
} finally {
  await browser.close();
}
