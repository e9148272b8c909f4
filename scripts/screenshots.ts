// Regenerates the report screenshots in docs/img/ (the README shows them): each gallery scenario
// below is run, its report.html opened in headless Chromium at 1400x1000 at the step the page opens
// on (the first hazard or failure, else the last step), and the page captured; then the live view of
// `replsim serve --ui` is captured after a DR set-up sent to it over HTTP.
// Run with `npx tsx scripts/screenshots.ts` after a change to the report; never edit the images by hand.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';
import { writeRunFiles } from '../src/report/results.js';
import { serve } from '../src/serve/serve.js';
import { launch } from '../test/report/chromium.js';

/** Scenario, and the image; the page opens at the first hazard (07: two primaries; 23: the promotion that loses writes). */
const SHOTS = [
  { file: 'scenarios/07-dr-unplanned-failover.yaml', image: 'docs/img/report-07-dr-unplanned-failover.png' },
  { file: 'scenarios/23-dr-lost-writes-after-promotion.yaml', image: 'docs/img/report-23-dr-lost-writes-after-promotion.png' },
  { file: 'scenarios/03-dr-planned-failover.yaml', image: 'docs/img/report-03-dr-planned-failover.png' },
  { file: 'scenarios/12-perf-dr-secondary-joins-set.yaml', image: 'docs/img/report-12-perf-dr-secondary-joins-set.png' },
];
const VIEWPORT = { width: 1400, height: 1000 };

/** What a class's first minutes send to `serve --ui`: a DR primary, a token, a secondary, a write. */
async function classSession(base: Record<string, string>, control: string, secret: string, root: string, westRoot: string): Promise<void> {
  const call = async (url: string, token: string, body?: unknown) => {
    // The control listener takes the session's secret; a cluster, its Vault token.
    const headers = url.startsWith(control) ? { Authorization: `Bearer ${secret}` } : { 'X-Vault-Token': token };
    const r = await fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, any>>;
  };
  await call(`${base.east}/v1/sys/replication/dr/primary/enable`, root);
  const token = (await call(`${base.east}/v1/sys/replication/dr/primary/secondary-token`, root, { id: 'west' })).wrap_info.token;
  await call(`${base.west}/v1/sys/replication/dr/secondary/enable`, westRoot, { token });
  await call(`${control}/v1/step`, '', { wait: '10s' });
  await call(`${base.east}/v1/secret/data/payments`, root, { data: { api_key: 'k-123' } });
  await call(`${control}/v1/step`, '', { wait: '2s' });
}

const browser = await launch();
try {
  for (const shot of SHOTS) {
    const loaded = loadScenario(readFileSync(shot.file, 'utf8'), shot.file);
    if (!loaded.ok) throw new Error(`${shot.file} does not load`);
    const run = await runScenario(loaded.scenario);
    const dir = mkdtempSync(join(tmpdir(), 'replsim-shot-'));
    writeRunFiles(dir, shot.file, run, loaded.scenario.description);
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.screenshot({ path: shot.image, fullPage: false });
    await page.close();
    console.log(`wrote ${shot.image}`);
  }
  const handle = await serve({ clusters: ['east', 'west'], clock: 'manual', ui: true, port: 0 });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${handle.control.url}/ui`);
    const ops = handle.world.state.operators;
    await classSession({ east: handle.clusters.east.url, west: handle.clusters.west.url }, handle.control.url, handle.control.secret, ops.east.rootToken, ops.west.rootToken);
    await page.waitForSelector('#steps li[data-i="6"]');
    await page.screenshot({ path: 'docs/img/serve-ui-live.png', fullPage: false });
    console.log('wrote docs/img/serve-ui-live.png');
  } finally {
    await handle.stop();
  }
} finally {
  await browser.close();
}
