// The go-live flow in a real browser (playwright-core driving Debian's Chromium): the account's user,
// an admin of that account, fills in the go-live profile, verifies its live webhook endpoint with a
// test event, sees every item of name-match's checklist done and submits it; being its submitter, they
// cannot approve it (maker-checker); a second admin approves it in the browser, and the live call then
// goes through. An operation approved from the CLI shows as approved (no red crosses, its checklist
// folded) on a compact page; the live call's fee shows on the wallet as a debit, −₹…. Screenshots go to
// test-artifacts/ (docs/console-go-live.png is the page with name-match submitted and signature-match
// approved, docs/console-go-live-review.png the reviewer's page).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium } from './browser.js';
import { runCommand } from '../src/admin/run.js';
import { eventually, PATHS, startApp, VALID, type TestApp } from './harness.js';
import { freePort } from './live-harness.js';
import { tlsReceiver, type TlsReceiver } from './tls-receiver.js';

const PASSWORD = 'correct horse battery';

describe('go live in a browser', { skip: skipWithoutChromium }, () => {
  let t: TestApp;
  let rx: TlsReceiver;
  let base: string;
  let browser: Browser;
  let page: Page;
  const nav = () => page.getByRole('navigation', { name: 'Console pages' });
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    rx = await tlsReceiver();
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_WEBHOOK_CA_FILE: rx.caFile });
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}`;
    for (const args of [['owner@acme.test', '--admin', '--account', t.accountId], ['checker@sangam.test', '--admin']]) {
      assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', args[0]!, '--password', PASSWORD, ...args.slice(1)])).code, 0);
    }
    // What the account does with its keys and the operator's CLI: a consent notice, a live allow-list,
    // a live webhook endpoint, a sandbox call that succeeds, funds for the live call.
    const consent = await t.call('POST', '/api/v1/consents', {
      body: { subject: { mobile: '9876543210' }, purpose: { code: 'payout-name', text: 'Check the payee name' }, operations: ['name-match'], notice: { version: 'v2', language: 'en', text: 'We compare the name you gave with your bank record.' } },
    });
    assert.equal(consent.status, 200, consent.text);
    assert.equal((await runCommand(t.store.db, ['allowlist', 'add', '--account', t.accountId, '--env', 'live', '127.0.0.1'])).code, 0);
    assert.equal((await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: rx.url } })).status, 200);
    assert.equal((await t.call('POST', PATHS.names, { body: VALID.names() })).body.data.status, 'success');
    assert.equal((await runCommand(t.store.db, ['wallet', 'topup', '--account', t.accountId, '--amount', '100'])).code, 0);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await rx?.close();
  });

  async function signIn(email: string) {
    await page.goto(`${base}/console`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await nav().getByRole('link', { name: 'Go-live reviews' }).waitFor();
  }

  it('the account verifies its live webhook endpoint with a test event', async () => {
    await signIn('owner@acme.test');
    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('live').check();
    await page.getByText(rx.url).waitFor();
    const row = page.getByRole('row').filter({ hasText: rx.url });
    await row.getByRole('button', { name: 'Send test event' }).click();
    await eventually(async () => rx.got.length > 0, 20_000);
    assert.equal(JSON.parse(rx.got[0]!.body).type, 'webhook.test');
    // Acknowledged: the endpoint's delivery status says so once the attempt is recorded and the page reads it again.
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return /last delivered/.test(await row.getByTestId('delivery-status').innerText());
    }, 20_000, 200);
  });

  it('fills in the profile, sees the checklist done and submits name-match', async () => {
    await nav().getByRole('link', { name: 'Go live' }).click();
    const card = page.getByRole('article', { name: 'Go-live name-match' });
    await card.waitFor();
    assert.match(await card.innerText(), /not submitted/);
    const form = page.getByRole('form', { name: 'Go-live profile' });
    await form.getByLabel('Legal name').fill('Acme Pay Private Limited');
    await form.getByLabel('Website').fill('https://acmepay.example');
    await form.getByLabel('Contact e-mail').fill('compliance@acmepay.example');
    await form.getByLabel('Use case').fill('We check the payee name before every payout.');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // Every item done once the page reloads the checklist: the test event was acknowledged meanwhile.
    // The four items every operation shares are shown once, above the operations; the card holds its own two.
    const shared = page.getByRole('article', { name: 'Checklist for every operation' });
    for (let i = 0; i < 200 && (await card.locator('li.todo').count()) + (await shared.locator('li.todo').count()) > 0; i++) {
      await page.reload();
      await card.waitFor();
    }
    assert.equal(await shared.locator('li.done').count(), 4, await shared.innerText());
    assert.equal(await card.locator('li.done').count(), 2, await card.innerText());
    assert.match(await card.innerText(), /^Name match/, 'named for people, the slug beside it');
    await card.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('status').filter({ hasText: 'Submitted for review: name-match' }).waitFor();
    await page.getByTestId('status-name-match').filter({ hasText: /^submitted$/ }).waitFor();
  });

  it('an operation approved from the CLI shows as approved: no red crosses, its checklist folded; the page stays compact', async () => {
    // signature-match has no successful sandbox call, so one item of its checklist is not done.
    assert.equal((await runCommand(t.store.db, ['approve', '--account', t.accountId, '--operation', 'signature-match'])).code, 0);
    await page.reload();
    const card = page.getByRole('article', { name: 'Go-live signature-match' });
    await card.waitFor();
    await page.getByTestId('status-signature-match').filter({ hasText: /^approved$/ }).waitFor();
    assert.match(await card.innerText(), /Live use is approved \(by an operator\)/);
    assert.equal(await card.locator('li.todo').count(), 0, 'no item of an approved operation is marked as failing');
    assert.equal(await card.locator('li').first().isVisible(), false, 'its checklist is folded away');
    // Its consent notice (recorded for name-match only) and sandbox calls are missing: shown, in grey.
    await card.getByText(/Checklist as it is now \(4 of 6 done\)/).click();
    assert.equal(await card.locator('li').first().isVisible(), true);
    assert.match((await card.locator('li.open').allInnerTexts()).join('\n'), /Successful sandbox calls/);
    // Compact: the profile is folded away once complete, the shared items shown once, operations in a grid.
    assert.equal(await page.getByRole('form', { name: 'Go-live profile' }).isVisible(), false);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 1400, `the page is ${height} px tall for ${await page.locator('article.op').count()} operations`);
    await card.getByText(/Checklist as it is now/).click(); // folded again for the screenshot
    await shot('console-go-live');
  });

  it('its submitter cannot approve it', async () => {
    await nav().getByRole('link', { name: 'Go-live reviews' }).click();
    const card = page.getByRole('article', { name: 'Submission Test Fintech name-match' });
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').filter({ hasText: /Maker-checker: owner@acme\.test proposed go-live submission/ }).waitFor();
    assert.equal((await t.call('POST', PATHS.names, { key: t.liveKey, body: VALID.names() })).status, 403);
  });

  it('a second admin approves it in the browser, and the live call goes through', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('checker@sangam.test');
    await nav().getByRole('link', { name: 'Go-live reviews' }).click();
    const card = page.getByRole('article', { name: 'Submission Test Fintech name-match' });
    await card.waitFor();
    assert.match(await card.innerText(), /Acme Pay Private Limited/);
    assert.match(await card.innerText(), /version v2/);
    await shot('console-go-live-review');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Nothing waits for review.').waitFor();
    const live = await t.call('POST', PATHS.names, { key: t.liveKey, body: VALID.names() });
    assert.equal(live.status, 200, live.text);
    assert.equal(live.body.data.status, 'success');
    const state = await t.call('GET', '/api/v1/account/go-live');
    const nm = state.body.data.operations.find((o: { operation: string }) => o.operation === 'name-match');
    assert.deepEqual([nm.status, nm.submission.submitted_by, nm.submission.decided_by], ['approved', 'owner@acme.test', 'checker@sangam.test']);
  });

  it('the wallet shows the live call\'s fee as a debit, −₹…, and a total that never goes below zero', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('owner@acme.test');
    await nav().getByRole('link', { name: 'Wallet' }).click();
    const table = page.getByRole('table', { name: 'Statement' });
    const debit = table.locator('td.num.debit').first();
    await debit.waitFor();
    assert.match(await debit.innerText(), /^−₹\d[\d,]*\.\d\d$/);
    const text = await table.innerText();
    assert.ok(!text.includes('₹-') && !text.includes('-₹'), text);
    for (const total of await table.locator('tbody tr td:last-child').allInnerTexts()) assert.match(total, /^₹\d/, 'a total is never negative');
    await shot('console-wallet-debit');
  });
});
