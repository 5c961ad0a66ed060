// The document-locker consent step in a real browser (playwright-core driving Debian's Chromium): the
// user opens authorization_url and clicks Allow, which the browser posts as an urlencoded form — on
// Sangam's own sandbox consent page, and on the partner simulator's page for a live initialize. Then
// the client downloads the record. Screenshots go to test-artifacts/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, skipWithoutChromium } from './browser.js';
import { eventually, PATHS, VALID } from './harness.js';
import { startLive, type LiveApp } from './live-harness.js';


describe('document-locker consent in a browser', { skip: skipWithoutChromium }, () => {
  let t: LiveApp;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    t = await startLive();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const download = (id: string, key: string) => t.call('POST', PATHS.aadhaar, { key, body: { ...VALID.aadhaar(), doclocker__client__id: id } });

  it('sandbox: Allow on Sangam’s consent page, back to redirect_url, then download', async () => {
    const redirect = `${t.base}/health`;
    const init = await t.call('POST', PATHS.init, { body: { ...VALID.init(), redirect_url: redirect } });
    assert.equal(init.status, 200, init.text);
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    await page.goto(url);
    await page.getByRole('heading', { name: /Share your Aadhaar/ }).waitFor();
    await shot('doclocker-sandbox-consent');
    await Promise.all([page.waitForURL((u) => u.pathname === '/health'), page.getByRole('button', { name: 'Allow' }).click()]);
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('doclocker__client__id'), id);
    assert.equal(back.searchParams.get('status'), 'authorized');
    const r = await download(id, t.key);
    assert.equal(r.body.data.status, 'success', r.text);
  });

  it('live: Allow on the partner simulator’s consent page, then download', async () => {
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: VALID.init() });
    assert.equal(init.body.statuscode, 'TUP', init.text);
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    assert.ok(url.startsWith(t.sim.url), url);
    await page.goto(url);
    await page.getByRole('heading', { name: /Share your Aadhaar/ }).waitFor();
    await shot('digilocker-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('heading', { name: 'Access allowed' }).waitFor();
    await shot('digilocker-consent-allowed');
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`, { key: t.liveKey })).body.data.status === 'success');
    const r = await download(id, t.liveKey);
    assert.equal(r.body.data.status, 'success', r.text);
    assert.equal(r.body.data.Aadhaar_Xml_Data.Masked_Aadhaar, 'XXXXXXXX2346');
  });
});
