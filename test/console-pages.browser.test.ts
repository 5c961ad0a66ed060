// The console pages of issue #27 in a real browser (playwright-core driving Debian's Chromium) against
// the real server process: a named key, logs (the latest on open) filtered by environment, a webhook endpoint created, sent
// a test event (received and signed), rotated and deleted, the admin area creating a user, changing a
// price and a rate limit, the wallet filtered and exported, the overview's range. Screenshots go to
// test-artifacts/console-*.png (docs/ keeps a copy: docs/CONSOLE.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, signIn, skipWithoutChromium, startConsoleServer, type ConsoleServer } from './browser.js';
import { eventually } from './harness.js';

describe('console pages in a browser (issue #27)', { skip: skipWithoutChromium }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let base: string;
  const received: Array<{ id: string; body: string }> = [];
  let arrived: () => void = () => {};
  const rx = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
      arrived();
    });
  });
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}console-${name}.png`, fullPage: true });
  const go = async (link: string, heading: string) => {
    await page.getByRole('link', { name: link, exact: true }).click();
    await page.getByRole('heading', { name: heading }).first().waitFor();
  };

  before(async () => {
    const user = { email: 'ops@acme.test', password: 'correct horse battery', admin: true };
    server = await startConsoleServer(user, { SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '50' });
    base = server.base;
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    browser = await launchBrowser();
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await signIn(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((r) => rx.close(() => r()));
    await server?.stop();
  });

  let key = '';
  const reference = `pages-${Date.now()}`;

  it('creates a named key and lists it by name', async () => {
    await go('API keys', 'API keys');
    await page.getByLabel('Key name').fill('checkout server');
    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    key = await page.getByTestId('new-key').innerText();
    const row = page.getByRole('row').filter({ hasText: key.slice(-4) });
    assert.match(await row.innerText(), /checkout server/);
    await shot('keys');
  });

  it('filters the logs by environment, with an environment column', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${base}/api/v1/document-ocr/signature-match`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reference_id: `${reference}-${i}`, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' }),
      });
      assert.equal(r.status, 200);
    }
    await go('Logs', 'Logs');
    // The latest requests show as the page opens, before any search.
    const rows = page.getByRole('row').filter({ hasText: reference });
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByRole('button', { name: 'Search' }).click();
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.match(await rows.first().innerText(), /sandbox/);
    await shot('logs');
    await page.getByLabel('Environment').selectOption('live');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No request matches these filters.').waitFor();
  });

  it('creates a webhook endpoint, sends it a test event, rotates its secret and deletes it', async () => {
    const url = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hooks`;
    await go('Webhooks', 'Webhooks');
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('transaction.success').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByTestId('webhook-secret').innerText();
    assert.match(secret, /^whsec_/);
    const row = page.getByRole('row').filter({ hasText: url });
    await row.waitFor();
    assert.match(await row.innerText(), /transaction\.success/);

    const delivered = new Promise<void>((r) => (arrived = r));
    await row.getByRole('button', { name: 'Send test event' }).click();
    await delivered;
    assert.equal(JSON.parse(received[0]!.body).type, 'webhook.test');
    // The receiver has answered, but the attempt is recorded after its answer arrives: read the page again until it says so.
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return /last delivered/.test(await row.getByTestId('delivery-status').innerText());
    }, 20_000, 200);
    await row.getByRole('button', { name: url }).click();
    await page.getByRole('table', { name: 'Deliveries' }).getByText('webhook.test').waitFor();
    await shot('webhooks');

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('webhook-secret').filter({ hasNotText: secret }).waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No sandbox webhook endpoints.').waitFor();
  });

  it('admin: creates a console user, changes a price and a rate limit', async () => {
    await go('Admin', 'Accounts');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Console users' }).waitFor();
    const form = page.getByRole('form', { name: 'New console user' });
    await form.getByLabel('Email').fill('analyst@acme.test');
    await form.getByLabel('Password').fill('long enough 1');
    await form.getByLabel('Account').selectOption({ index: 1 }); // the one account, Acme Pay
    await form.getByRole('button', { name: 'Create user' }).click();
    const user = page.getByRole('row').filter({ hasText: 'analyst@acme.test' });
    await user.waitFor();
    assert.match(await user.innerText(), /Acme Pay/);
    await shot('admin-users');

    await page.getByRole('link', { name: 'Pricing' }).click();
    await page.getByLabel('New fee for signature-match').fill('3.25');
    await page.getByRole('row').filter({ hasText: 'signature-match' }).getByRole('button', { name: 'Set' }).click();
    await page.getByTestId('fee-signature-match').filter({ hasText: '₹3.25' }).waitFor();
    await shot('admin-pricing');

    await page.getByRole('link', { name: 'Rate limits' }).click();
    await page.getByLabel('Requests a second for Acme Pay').fill('25');
    await page.getByRole('row').filter({ hasText: 'Acme Pay' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row').filter({ hasText: 'Acme Pay' }).filter({ hasText: '25/s' }).waitFor();
    await shot('admin-limits');
  });

  it('wallet: reference and transaction columns, a filter and a CSV export', async () => {
    await go('Admin', 'Accounts');
    for (const amount of ['150', '25.5']) {
      await page.getByLabel('Top-up for Acme Pay').fill(amount);
      await page.getByRole('row').filter({ hasText: 'Acme Pay' }).getByRole('button', { name: 'Top up' }).click();
      await page.getByRole('row').filter({ hasText: 'Acme Pay' }).filter({ hasText: amount === '150' ? '₹150.00' : '₹175.50' }).waitFor();
    }
    await go('Wallet', 'Wallet statement');
    const table = page.getByRole('table', { name: 'Statement' });
    await table.waitFor();
    assert.deepEqual(await table.locator('th').allInnerTexts(), ['Time', 'Kind', 'Reference', 'Transaction', 'Why', 'Amount', 'Total after']);
    const today = new Date().toLocaleDateString('en-CA');
    await page.getByLabel('From date').fill(today);
    await page.getByLabel('To date').fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.equal(await table.locator('tbody tr').count(), 2);
    await shot('wallet');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const file = `${ARTIFACTS}statement.csv`;
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(csv[0], 'id,created_at,kind,reference_id,txn_id,operation,status,amount,balance_after,reason');
    assert.equal(csv.length, 3);
    await page.getByLabel('Reference (reference_id or txn_id)').fill('no-such-reference');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No wallet movements match.').waitFor();
  });

  it('overview: sandbox and live apart over a chosen range', async () => {
    await go('Overview', 'Overview');
    assert.equal(await page.getByTestId('total-sandbox').innerText(), '2');
    await page.getByLabel('Range').selectOption('7d');
    await page.getByRole('img', { name: 'Requests per day' }).waitFor();
    assert.equal(await page.getByTestId('total-sandbox').innerText(), '2');
    assert.equal(await page.getByTestId('total-live').innerText(), '0');
    await shot('overview');
  });
});
