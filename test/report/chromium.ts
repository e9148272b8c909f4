// Headless Chromium for the browser tests: Debian's `chromium` package (`.ci/run` installs it when it
// is missing), driven by playwright-core, with the flags this closed network needs (no background
// connections, no first-run work; playwright gives each launch a new empty profile). REPLSIM_CHROMIUM names another binary.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.REPLSIM_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run. In CI they always do (a missing browser fails them, since `.ci/run`
 * installs it); on a developer's machine without Chromium they are skipped with this reason.
 */
export const browserMissing = !existsSync(CHROMIUM) && process.env.CI === undefined;

/** Why the browser tests skip, and how to have them run: in the suite's title and on stderr. */
export const BROWSER_SKIP_REASON = `skipped: no Chromium at ${CHROMIUM}. To run them, install it (Debian, Ubuntu: sudo apt-get install chromium; .ci/run does) or set REPLSIM_CHROMIUM to a Chromium or Chrome binary`;

if (browserMissing) console.warn(`browser tests (test/report/report-browser.test.ts) ${BROWSER_SKIP_REASON}`);

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
