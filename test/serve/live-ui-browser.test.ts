// The classroom view: `serve --ui` serves the report page at the control listener's /ui, and the page
// follows the session. Headless Chromium opens it; requests sent with curl (another process, as a
// trainee's terminal) and a fault from the control listener must show on the page within a second:
// a new step in the list, the topology and the roles redrawn.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { browserMissing, launch } from '../report/chromium.js';

const run = promisify(execFile);
const hasCurl = spawnSync('sh', ['-c', 'command -v curl']).status === 0;

describe.skipIf(browserMissing || !hasCurl)('replsim serve --ui: the live view in headless Chromium', () => {
  let handle: ServeHandle;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    handle = await serve({ clusters: ['east', 'west'], clock: 'manual', ui: true, port: 0 });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${handle.control.url}/ui`);
  });

  afterAll(async () => {
    await browser?.close();
    await handle?.stop();
  });

  it('serves the page only where asked, and only to GET', async () => {
    expect(await page.textContent('#live')).toBe('live');
    expect(await page.$$eval('#steps li', (ls) => ls.length)).toBe(1);
    const post = await fetch(`${handle.control.url}/ui`, { method: 'POST' });
    expect(post.status).toBe(405);
    const off = await serve({ clusters: ['east'], clock: 'manual', port: 0 });
    try {
      expect((await fetch(`${off.control.url}/ui`, { headers: { Authorization: `Bearer ${off.control.secret}` } })).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it('shows a request sent with curl within a second: the step listed, east drawn as a DR primary', async () => {
    const root = handle.world.state.operators.east.rootToken;
    await run('curl', ['-sf', '-X', 'POST', '-H', `X-Vault-Token: ${root}`, `${handle.clusters.east.url}/v1/sys/replication/dr/primary/enable`]);
    await page.waitForSelector('#steps li[data-i="1"]', { timeout: 1000 });
    await page.waitForFunction(() => document.querySelector('#topology [data-cluster="east"]')?.getAttribute('data-dr') === 'primary', undefined, { timeout: 1000 });
    expect(await page.textContent('#steps li[data-i="1"]')).toBe('1. POST sys/replication/dr/primary/enable on east');
    expect(await page.getAttribute('[data-cell="east:dr:1"]', 'data-mode')).toBe('primary');
    expect((await page.textContent('#curl')) ?? '').toContain(`${handle.clusters.east.url}/v1/sys/replication/dr/primary/enable`);
  });

  it('follows a fault from the control listener too', async () => {
    const r = await fetch(`${handle.control.url}/v1/step`, { method: 'POST', body: JSON.stringify({ crash: 'west' }), headers: { Authorization: `Bearer ${handle.control.secret}` } });
    expect(r.status).toBe(200);
    await page.waitForFunction(() => document.querySelector('#topology [data-cluster="west"]')?.getAttribute('data-crashed') === 'true', undefined, { timeout: 1000 });
    expect(await page.textContent('#position')).toBe('step 2 of 2');
  });

  it('answers 204 to a page that is up to date', async () => {
    const first = (await (await fetch(`${handle.control.url}/ui/model?since=none`)).json()) as { version: string; model: { steps: unknown[] } };
    expect(first.model.steps).toHaveLength(2);
    expect((await fetch(`${handle.control.url}/ui/model?since=${encodeURIComponent(first.version)}`)).status).toBe(204);
  });

  it('logs no console error', () => {
    expect(errors).toEqual([]);
  });
});
