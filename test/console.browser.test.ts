// The console in a real browser (playwright-core driving Debian's Chromium) against the real server
// process: sign in, create a sandbox key, call the API with it, find the call in the logs by
// reference_id, export, roll the key. Screenshots go to test-artifacts/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium, startConsoleServer, type ConsoleServer } from './browser.js';
import { sleep } from './harness.js';

describe('console in a browser', { skip: skipWithoutChromium }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let base: string;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    server = await startConsoleServer({ email: 'dev@acme.test', password: 'correct horse battery', admin: true });
    base = server.base;
    browser = await launchBrowser();
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  let key = '';
  const reference = `browser-${Date.now()}`;

  it('signs in', async () => {
    await page.goto(`${base}/console`);
    await page.getByLabel('Email').fill('dev@acme.test');
    await page.getByLabel('Password').fill('correct horse battery');
    await shot('01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.match(await page.getByTestId('balance').innerText(), /₹0\.00/);
    await shot('02-overview-empty');
  });

  it('creates a sandbox key', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    key = await page.getByTestId('new-key').innerText();
    assert.match(key, /^sk_test_[0-9A-Za-z]{40}$/);
    await shot('03-key-created');
  });

  it('calls the API with it', async () => {
    const r = await fetch(`${base}/api/v1/document-ocr/signature-match`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference_id: reference, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' }),
    });
    assert.equal(r.status, 200);
  });

  it('finds the call in the logs by reference_id and opens its details', async () => {
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.getByLabel('Reference id').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: reference });
    await row.waitFor();
    assert.match(await row.innerText(), /signature-match/);
    await shot('04-logs-search');
    await row.getByRole('button').click();
    const drawer = page.getByRole('dialog', { name: 'Request details' });
    await drawer.waitFor();
    assert.match(await drawer.innerText(), new RegExp(reference));
    await shot('05-log-detail');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('exports the filtered logs as CSV', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const file = `${ARTIFACTS}export.csv`;
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8');
    assert.match(csv.split('\n')[0]!, /^request_id,created_at,operation/);
    assert.ok(csv.includes(reference));
  });

  it('rolls the key: the new key works', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Grace period when rolling (seconds)').fill('0');
    const row = page.getByRole('row').filter({ hasText: key.slice(-4) });
    await row.getByRole('button', { name: 'Roll' }).click();
    const rolled = await page.getByTestId('new-key').innerText();
    assert.notEqual(rolled, key);
    await shot('06-key-rolled');
    const call = (k: string) => fetch(`${base}/api/v1/account/wallet`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.status);
    assert.equal(await call(rolled), 200);
    await sleep(1100); // the server's key cache lives at most 1 s
    assert.equal(await call(key), 401);
  });

  it('lays out on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
    await shot('07-phone-overview');
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();
    await shot('08-phone-admin');
  });
});
