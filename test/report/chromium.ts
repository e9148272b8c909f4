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

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
