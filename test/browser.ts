// What the browser tests share: Debian's Chromium driven by playwright-core (skipped where it is not
// installed), launched with the flags a container needs, and the folder screenshots go to.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** The `skip` option of a browser test's describe. */
export const skipWithoutChromium = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;

/** Chromium, headless, with the screenshot folder made. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
