// "Needs attention" in a real browser (playwright-core driving Debian's Chromium) against a live app
// and the partner simulator: overdue payouts show in the navigation's count and the queue; a
// transaction's page shows its partner history; one admin proposes marking it success, cannot approve
// it, and a second admin approves it. Screenshots go to test-artifacts/ (docs/console-needs-attention.png
// is the queue's, docs/console-needs-attention-transaction.png the proposal).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium } from './browser.js';
import { runCommand } from '../src/admin/run.js';
import { eventually, PATHS, VALID } from './harness.js';
import { startLive, startSim, type LiveApp, type Sim } from './live-harness.js';

const PASSWORD = 'correct horse battery';

describe('needs attention in a browser', { skip: skipWithoutChromium }, () => {
  let sim: Sim;
  let t: LiveApp;
  let browser: Browser;
  let page: Page;
  const payouts: Array<{ txnId: string; ref: string }> = [];
  const nav = () => page.getByRole('navigation', { name: 'Console pages' });
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    // The simulator holds payouts pending for 10 minutes; the partner is expected to answer at once.
    sim = await startSim({ pendingMs: 600_000 });
    t = await startLive({ SANGAM_EXPECTED_FINAL_S: 'primary=0', SANGAM_OVERDUE_POLL_MS: '100' }, 10_000, sim);
    for (const email of ['maker@sangam.test', 'checker@sangam.test']) assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', email, '--password', PASSWORD, '--admin'])).code, 0);
    for (const amount of [250, 1200]) {
      const body = { ...VALID.upi(), vpa: 'pending@sandbox', amount };
      const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
      assert.equal(r.body.data.status, 'pending', r.text);
      payouts.push({ txnId: r.body.data.txn_id, ref: body.reference_id });
    }
    await eventually(async () => /sangam_overdue_transactions\{partner="primary"\} 2/.test((await t.app.inject({ method: 'GET', url: '/metrics' })).body));
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await sim?.stop();
  });

  async function signIn(email: string) {
    await page.goto(`${t.base}/console`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await nav().getByRole('link', { name: /Needs attention/ }).waitFor();
  }

  it('shows the count in the navigation and the overdue payouts in the queue', async () => {
    await signIn('maker@sangam.test');
    assert.equal(await page.getByTestId('attention-count').innerText(), '2');
    await nav().getByRole('link', { name: /Needs attention/ }).click();
    await page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    for (const p of payouts) {
      const row = page.getByRole('row').filter({ hasText: p.txnId });
      await row.waitFor();
      assert.match(await row.innerText(), /Overdue/);
      assert.match(await row.innerText(), /expected within 0 s/);
    }
    await shot('attention-queue');
  });

  it('opens a transaction with its partner history and proposes marking it success; its maker cannot approve it', async () => {
    const p = payouts[0]!;
    await page.getByRole('link', { name: p.txnId }).click();
    await page.getByRole('heading', { name: /Transaction/ }).waitFor();
    const history = page.getByRole('table', { name: 'Partner history' });
    await history.getByRole('row').filter({ hasText: 'request' }).waitFor();
    assert.match(await history.innerText(), /answer\s+primary\s+pending/);
    assert.match(await history.innerText(), /overdue/);
    const resolve = page.getByRole('form', { name: 'Resolve' });
    await resolve.getByLabel('Action').selectOption('success');
    await resolve.getByLabel('Reason').fill('Credited: partner statement of today');
    await resolve.getByLabel(/Evidence/).fill('UTR 412345678901, statement line 17');
    await resolve.getByRole('button', { name: 'Propose' }).click();
    const waiting = page.getByRole('region', { name: 'Waiting for approval' });
    await waiting.waitFor();
    assert.ok(await waiting.getByRole('button', { name: 'Approve' }).isDisabled(), 'the maker cannot approve');
    await shot('attention-proposed');
    assert.equal((await t.call('GET', `/api/v1/transactions/${p.ref}`, { key: t.liveKey })).body.data.status, 'pending');
  });

  it('a second admin approves it: the payout is settled and leaves the queue', async () => {
    const p = payouts[0]!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('checker@sangam.test');
    await page.goto(`${t.base}/console#attention/${p.txnId}`);
    const waiting = page.getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('success', { exact: true }).first().waitFor();
    await page.getByRole('listitem').filter({ hasText: /applied by checker@sangam\.test/ }).waitFor();
    await shot('attention-approved');
    assert.equal((await t.call('GET', `/api/v1/transactions/${p.ref}`, { key: t.liveKey })).body.data.status, 'success');
    await eventually(async () => (await page.getByTestId('attention-count').innerText()) === '1');
    await t.assertLedger();
  });

  it('lays the queue out on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await nav().getByRole('link', { name: /Needs attention/ }).click();
    await page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    await shot('attention-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
  });
});
