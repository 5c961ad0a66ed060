// The float in "Needs attention", in a real browser (playwright-core driving Debian's Chromium) against
// a live app and the Setu prepaid emulator (docs/RELIABILITY.md, "Float reconciliation"; the float
// check is ticked by hand): a partner with no opening balance is said to conclude nothing, and its
// opening is recorded from the page; a reversal whose every webhook Setu dropped becomes a drift whose
// candidate is the reversed recharge — one admin proposes its reversal in the page and cannot approve
// it, an admin made after the proposal is refused (the 403 shown), a second admin approves it, and the
// item is gone after the next check; an unexplained drift's adjustment is rejected and the drift
// dismissed. Screenshots go to test-artifacts/ (docs/console-needs-attention-float.png is the drift
// with its proposal, as the checker sees it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium } from './browser.js';
import { runCommand } from '../src/admin/run.js';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from '../partner-sim/setu-recharge/index.js';
import { paymentRefIdOf } from '../src/providers/setu/transformers.js';
import { eventually, PATHS, uuid, VALID } from './harness.js';
import { liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';

const SECRET = 'setu_float_browser_webhook_path_secret';
const PASSWORD = 'correct horse battery';
const ADMINS = { maker: 'maker@sangam.test', checker: 'checker@sangam.test', late: 'late@sangam.test' };
const WALLET = 5_000_000; // ₹50,000.00

describe('the float in Needs attention, in a browser', { skip: skipWithoutChromium }, () => {
  let emu: SetuRechargeEmulator;
  let t: PartnerApp;
  let browser: Browser | undefined;
  let page: Page;

  partnerSuiteLife(async (port) => {
    emu = await startSetuRechargeEmulator({ webhookUrl: `http://127.0.0.1:${port}/partners/setu/webhooks/${SECRET}`, pendingMs: 200, latencyMs: 0, webhookTimeScale: 0.005, walletPaise: WALLET });
    const s = emu.settings;
    const vars = { TOKEN_URL: `${emu.url}/v1/users/login`, CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId, WEBHOOK_SECRET: SECRET };
    t = await startPartnerApp({ ...partnerSuiteEnv('setu', 'setu-recharge', emu.url, vars, 'recharge-commission'), SANGAM_PARTNER_TIMEOUT_MS: '2000', SANGAM_FLOAT_CHECK_MS: '3600000', SANGAM_FLOAT_CONFIRM_CHECKS: '2' }, { port });
    for (const email of [ADMINS.maker, ADMINS.checker]) assert.equal((await cli('users', 'create', '--email', email, '--password', PASSWORD, '--admin')).code, 0);
    browser = await launchBrowser();
    return {
      t,
      emu: {
        setFaults: (f: object) => emu.setFaults(f),
        close: async () => {
          await browser?.close();
          await emu.close();
        },
      },
    };
  });

  const cli = (...argv: string[]) => runCommand(t.store.db, argv, { settlement: async () => t.services.settlement });
  const { wallet } = liveReads(() => t);
  const setu = async () => (await t.float.tick()).find((o) => o.partner === 'setu')!;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  const drift = () => page.getByRole('article', { name: 'Float drift setu' });
  const openItems = () => t.store.db.selectFrom('float_drifts').select('id').where('state', '=', 'open').execute();

  /** A fresh browser context signed in as `email`, on the Needs attention page. */
  async function as(email: string) {
    await page?.context().close();
    page = await (await browser!.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${t.base}/console`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: /Needs attention/ }).click();
    await page.getByRole('heading', { name: 'Float', exact: true }).waitFor();
  }
  /** The page again, after the float check moved on behind it. */
  async function reopen() {
    await page.reload();
    await page.getByRole('heading', { name: 'Float', exact: true }).waitFor();
  }

  it('says a partner with no opening balance concludes nothing, and records its opening from the page', async () => {
    assert.equal((await setu()).state, 'unanchored');
    await as(ADMINS.maker);
    const row = page.getByRole('table', { name: 'Partner floats' }).getByRole('row').filter({ hasText: 'setu' });
    assert.match(await row.innerText(), /not recorded/);
    await page.getByText('No opening balance is recorded for setu: its float checks conclude nothing until one is.').waitFor();
    await shot('float-unanchored');
    const form = page.getByRole('form', { name: 'Record a float movement' });
    assert.equal(await form.getByLabel('Kind').inputValue(), 'opening');
    await form.getByLabel('Amount').fill('50,000');
    await form.getByLabel(/Memo/).fill('Setu dashboard');
    await form.getByRole('button', { name: 'Record' }).click();
    await form.getByRole('status').filter({ hasText: 'Opening balance recorded' }).waitFor();
    await eventually(async () => /₹50,000\.00/.test(await row.innerText()));
    const opening = await t.store.db.selectFrom('float_movements').select(['amount_paise', 'recorded_by']).where('kind', '=', 'opening').executeTakeFirstOrThrow();
    assert.deepEqual(opening, { amount_paise: WALLET, recorded_by: `console:${ADMINS.maker}` });
    assert.equal((await setu()).state, 'balanced');
    await reopen();
    await page.getByText('No float drift is open.').waitFor();
    assert.match(await row.innerText(), /\+?₹0\.00/);
  });

  it('a reversal Setu never told us of: proposed from the page by one admin, refused to a late admin, approved by another; gone after the next check', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const r = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: { ...VALID.recharge(), mobile: '9104560004', operator: 'JIO', circle: 'MH', amount: 199, idempotency_key: uuid() } });
    assert.equal(r.body.data.status, 'success', r.text);
    const txnId = r.body.data.txn_id as string;
    const rec = () => emu.recharges().find((x) => x.input.paymentRefId === paymentRefIdOf(txnId))!;
    await eventually(async () => rec().reversed && emu.webhookLog().some((w) => w.ref === rec().transactionRefId && w.url.endsWith('/payment/reversal')));
    await setu();
    const o = await setu();
    assert.ok(o.state === 'drift' && o.drift === 19_900 && o.item, JSON.stringify(o));

    await reopen();
    assert.equal(await drift().getByTestId('drift-amount').innerText(), '+₹199.00');
    assert.match(await drift().innerText(), /the partner holds more than the books/);
    const candidate = drift().getByRole('table', { name: 'Candidates for setu' }).getByRole('row').filter({ hasText: txnId });
    assert.match(await candidate.innerText(), /₹199\.00[\s\S]*the whole difference, alone/);
    assert.equal(await candidate.getByRole('link', { name: txnId }).getAttribute('href'), `#attention/${txnId}`);
    await candidate.getByRole('button', { name: 'Reverse this one…' }).click();
    const resolve = drift().getByRole('form', { name: 'Resolve the drift of setu' });
    assert.equal(await resolve.getByLabel('Transaction').inputValue(), txnId);
    await resolve.getByLabel('Reason').fill('Setu reversed it: their statement shows the credit');
    await resolve.getByLabel(/Evidence/).fill('Setu support ticket 4411');
    await resolve.getByRole('button', { name: 'Propose' }).click();
    const waiting = drift().getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByText('Evidence: Setu support ticket 4411 [float drift').waitFor();
    assert.ok(await waiting.getByRole('button', { name: 'Approve' }).isDisabled(), 'the maker cannot approve');
    assert.match(await waiting.innerText(), /You proposed it/);

    // An admin made after the proposal may not check it: the server's 403, shown as a refusal.
    assert.equal((await cli('users', 'create', '--email', ADMINS.late, '--password', PASSWORD, '--admin')).code, 0);
    await as(ADMINS.late);
    await drift().getByRole('region', { name: 'Waiting for approval' }).getByRole('button', { name: 'Approve' }).click();
    const refused = drift().getByRole('alert');
    await refused.waitFor();
    assert.match(await refused.innerText(), /^Refused: Maker-checker: late@sangam\.test's admin rights took effect at .* after/);
    await shot('float-refused');

    await as(ADMINS.checker);
    await drift().getByRole('region', { name: 'Waiting for approval' }).getByText(/Reason: Setu reversed it/).waitFor();
    await shot('console-needs-attention-float');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('float-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px on a phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await drift().getByRole('region', { name: 'Waiting for approval' }).getByRole('button', { name: 'Approve' }).click();
    await drift().getByText(/Reversal of txn_\w+ \(proposed by maker@sangam\.test\) applied: the next float check/).waitFor();
    await shot('float-approved');
    assert.deepEqual(await wallet(), before, "the client's debit came back, once");

    const cleared = await setu();
    assert.ok(cleared.state === 'balanced' && cleared.cleared === o.item, JSON.stringify(cleared));
    await reopen();
    await page.getByText('No float drift is open.').waitFor();
    assert.equal(await drift().count(), 0);
    assert.deepEqual(await openItems(), []);
  });

  it('an unexplained drift: an adjustment rejected by the checker, then the drift dismissed with a reason', async () => {
    const now = ((await (await fetch(`${emu.url}/_sim/wallet`)).json()) as { balance: number }).balance;
    await fetch(`${emu.url}/_sim/wallet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance: now - 300 }) });
    await setu();
    const o = await setu();
    assert.ok(o.state === 'drift' && o.drift === -300 && o.item, JSON.stringify(o));

    await as(ADMINS.maker);
    assert.equal(await drift().getByTestId('drift-amount').innerText(), '−₹3.00');
    assert.match(await drift().innerText(), /the partner holds less than the books/);
    await drift().getByText(/No transaction's amount explains this difference/).waitFor();
    const resolve = drift().getByRole('form', { name: 'Resolve the drift of setu' });
    await resolve.getByLabel('Action').selectOption('adjustment');
    assert.equal(await resolve.getByLabel('Amount').inputValue(), '-3.00');
    await resolve.getByLabel('Amount').fill('-3.001');
    await resolve.getByLabel('Reason').fill('Setu platform fee');
    await resolve.getByLabel(/Evidence/).fill('Setu invoice 77');
    await resolve.getByRole('button', { name: 'Propose' }).click();
    await resolve.getByText('Write a non-zero amount in rupees').waitFor();
    await resolve.getByLabel('Amount').fill('−3');
    await resolve.getByRole('button', { name: 'Propose' }).click();
    const waiting = drift().getByRole('region', { name: 'Waiting for approval' });
    await shot('float-adjustment');
    assert.match(await waiting.innerText(), /Adjust the books by −₹3\.00 proposed by maker@sangam\.test/);

    await as(ADMINS.checker);
    await drift().getByRole('region', { name: 'Waiting for approval' }).getByLabel('Reason to reject').fill('Finance books the fee, not the float');
    await drift().getByRole('region', { name: 'Waiting for approval' }).getByRole('button', { name: 'Reject' }).click();
    await drift().getByRole('form', { name: 'Resolve the drift of setu' }).waitFor();
    const rejected = await t.store.db.selectFrom('float_resolutions').select(['state', 'decided_by', 'decision_reason']).executeTakeFirstOrThrow();
    assert.deepEqual(rejected, { state: 'rejected', decided_by: ADMINS.checker, decision_reason: 'Finance books the fee, not the float' });

    const dismiss = drift().getByRole('form', { name: 'Resolve the drift of setu' });
    await dismiss.getByLabel('Action').selectOption('dismiss');
    assert.equal(await dismiss.getByLabel(/Evidence/).count(), 0, 'a dismissal asks no evidence');
    await dismiss.getByLabel('Reason').fill('Setu platform fee, booked by finance');
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('No float drift is open.').waitFor();
    const closed = await t.store.db.selectFrom('float_drifts').select(['state', 'closed_by', 'close_reason']).where('id', '=', o.item).executeTakeFirstOrThrow();
    assert.deepEqual(closed, { state: 'dismissed', closed_by: ADMINS.checker, close_reason: 'Setu platform fee, booked by finance' });
    const after = await setu();
    assert.ok(after.state === 'drift' && after.item === null, 'the same drift does not reopen');
    await shot('float-dismissed');
    const row = page.getByRole('table', { name: 'Partner floats' }).getByRole('row').filter({ hasText: 'setu' });
    assert.match(await row.innerText(), /−₹3\.00\s+no open item: not confirmed yet, or dismissed/);
  });
});
