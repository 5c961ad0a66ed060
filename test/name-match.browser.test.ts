// The console's name-match settings page in a real browser (playwright-core driving Debian's Chromium)
// against the real server process: the documented defaults shown, thresholds and the review rule saved
// (read back through GET /console/api/name-match and a reload), a refused change shown with its reason,
// and the way back to the defaults; the payee verification reuse window shown in hours, set, refused
// past 30 days, and back to its default (read back through GET /console/api/verification-reuse, and in
// the audit log as the CLI's action). Screenshots go to test-artifacts/ (docs/console-name-match.png is
// the saved settings').
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, signIn, skipWithoutChromium, startConsoleServer, type ConsoleServer } from './browser.js';

describe('console name-match settings in a browser', { skip: skipWithoutChromium }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let base: string;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  const field = (label: string) => page.getByRole('spinbutton', { name: new RegExp(`^${label}`) });
  const settings = async () => (await (await page.request.get(`${base}/console/api/name-match`)).json()).data;

  before(async () => {
    const user = { email: 'ops@acme.test', password: 'correct horse battery', admin: false };
    server = await startConsoleServer(user);
    base = server.base;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the documented defaults', async () => {
    await page.getByRole('link', { name: 'Name match' }).click();
    await page.getByRole('heading', { name: 'Name match' }).waitFor();
    assert.equal(await field('Approve at').inputValue(), '75');
    assert.equal(await field('Review at').inputValue(), '55');
    assert.ok(await page.getByRole('radio', { name: /Hold it/ }).isChecked());
  });

  it('saves thresholds and the review rule; they hold after a reload', async () => {
    await field('Approve at').fill('85');
    await field('Review at').fill('60');
    await page.getByRole('radio', { name: /Pay it/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual(await settings(), { thresholds: { approve_at: 85, review_at: 60 }, on_review: 'pay' });
    await shot('name-match-saved');
    await page.reload();
    await page.getByRole('heading', { name: 'Name match' }).waitFor();
    assert.equal(await field('Approve at').inputValue(), '85');
    assert.ok(await page.getByRole('radio', { name: /Pay it/ }).isChecked());
  });

  it('refuses a review threshold above the approve threshold, saying why, and keeps the saved ones', async () => {
    await field('Review at').fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /review_at|approve/i);
    assert.deepEqual(await settings(), { thresholds: { approve_at: 85, review_at: 60 }, on_review: 'pay' });
  });

  it('goes back to the defaults', async () => {
    await page.getByRole('button', { name: 'Back to the defaults' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(await field('Approve at').inputValue(), '75');
    assert.equal(await field('Review at').inputValue(), '55');
    assert.deepEqual(await settings(), { thresholds: { approve_at: 75, review_at: 55 }, on_review: 'hold' });
  });

  it('the payee verification reuse window: 24 h by default, set in hours, refused past 30 days, back to the default', async () => {
    const reuse = async () => (await (await page.request.get(`${base}/console/api/verification-reuse`)).json()).data;
    const windowField = page.getByRole('spinbutton', { name: /^Reuse window/ });
    assert.equal(await windowField.inputValue(), '24');
    assert.deepEqual(await reuse(), { reuse_window_s: 86_400 });
    await windowField.fill('1.5');
    await page.getByRole('button', { name: 'Set window' }).click();
    await page.getByRole('status').filter({ hasText: 'Window saved.' }).waitFor();
    assert.deepEqual(await reuse(), { reuse_window_s: 5_400 });
    await page.reload();
    await page.getByRole('heading', { name: 'Payee verification reuse' }).waitFor();
    assert.equal(await windowField.inputValue(), '1.5');
    // Past 30 days the server refuses it and names the field (the form's own limit lifted to send it).
    await windowField.evaluate((input) => input.removeAttribute('max'));
    await windowField.fill('744');
    await page.getByRole('button', { name: 'Set window' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /reuse_window_s/);
    assert.deepEqual(await reuse(), { reuse_window_s: 5_400 });
    await page.getByRole('button', { name: /^Window back to 24 h/ }).click();
    await page.getByRole('status').filter({ hasText: 'Window saved.' }).waitFor();
    assert.equal(await windowField.inputValue(), '24');
    assert.deepEqual(await reuse(), { reuse_window_s: 86_400 });
    await shot('name-match-reuse-window');
  });
});
