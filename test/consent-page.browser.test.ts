// The hosted consent page in a real browser (playwright-core driving Debian's Chromium): what the person
// sees (operations by name, dates in IST, no slug, no raw timestamp), and the button that withdraws it.
// Its screenshot is docs/consent-page.png (test-artifacts/consent-page.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium } from './browser.js';
import { startApp, type TestApp } from './harness.js';
import { freePort } from './live-harness.js';

describe('hosted consent page in a browser', { skip: skipWithoutChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let url = '';

  before(async () => {
    const port = await freePort();
    t = await startApp({ SANGAM_PUBLIC_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    const c = await t.call('POST', '/api/v1/consents', {
      body: {
        subject: { mobile: '9876543210' },
        purpose: { code: 'payout', text: 'To pay you and check the account the money goes to' },
        operations: ['upi-payment-status', 'mobile-to-bank-account'],
        notice: { version: '2026-11', language: 'en', text: 'We will check your bank account and pay you by UPI.' },
        collected_at: '2026-11-28T13:36:00Z',
        expires_at: '2027-11-28T13:36:00Z',
      },
    });
    assert.equal(c.status, 200, c.text);
    url = c.body.data.withdraw_url;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 720, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the consent to the person, and withdraws it', async () => {
    await page.goto(url);
    await page.getByRole('heading', { name: 'Your consent' }).waitFor();
    const text = await page.locator('main').innerText();
    for (const shown of ['UPI payment', 'Bank account from mobile number', '28 Nov 2026, 7:06 pm IST', '28 Nov 2027, 7:06 pm IST', 'Active']) assert.ok(text.includes(shown), `${shown} in ${text}`);
    assert.ok(!/upi-payment-status|mobile-to-bank-account|\d{4}-\d\d-\d\dT/.test(text), text);
    await page.screenshot({ path: `${ARTIFACTS}consent-page.png`, fullPage: true });
    await page.getByRole('button', { name: 'Withdraw this consent' }).click();
    await page.getByRole('heading', { name: 'Consent withdrawn' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Withdrawn since \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d\d [ap]m IST/);
  });
});
