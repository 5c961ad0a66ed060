// The hosted consent page (issue #26 item 3): the withdraw_url every consent record carries opens a
// page without any key, showing the consent; its button withdraws it exactly as
// POST /api/v1/consents/{id}/withdraw does. The link works for that consent only, a wrong or missing
// token is a 404, and the withdrawal needs the token in the POST body (no cross-site withdrawal).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';

const body = (mobile: string) => ({
  subject: { mobile },
  purpose: { code: 'bank-check', text: 'To check the bank account linked to your mobile' },
  operations: ['mobile-to-bank-account'],
  notice: { version: '2026-11', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
});

describe('hosted consent page', () => {
  let t: TestApp;
  let a: { id: string; withdraw_url: string };
  let b: { id: string; withdraw_url: string };
  before(async () => {
    t = await startApp();
    a = (await t.call('POST', '/api/v1/consents', { body: body('9876543210') })).body.data;
    b = (await t.call('POST', '/api/v1/consents', { body: body('9123456780') })).body.data;
  });
  after(() => t.close());

  const path = (url: string) => url.slice(t.config.publicUrl.length);
  const token = (url: string) => new URL(url).searchParams.get('t')!;
  const page = (url: string) => t.app.inject({ method: 'GET', url });
  const post = (id: string, form: string) => t.app.inject({ method: 'POST', url: `/consents/${id}/withdraw`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });

  it('every record carries a signed link under the public URL', async () => {
    assert.ok(a.withdraw_url.startsWith(`${t.config.publicUrl}/consents/${a.id}?t=`));
    assert.match(token(a.withdraw_url), /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(token(a.withdraw_url), token(b.withdraw_url));
    assert.equal((await t.call('GET', `/api/v1/consents/${a.id}`)).body.data.withdraw_url, a.withdraw_url);
  });

  it('shows the consent, masked, with a withdraw form carrying the token, and safe headers', async () => {
    const r = await page(path(a.withdraw_url));
    assert.equal(r.statusCode, 200);
    assert.match(r.headers['content-type'] as string, /text\/html/);
    for (const text of ['To check the bank account linked to your mobile', 'Bank account from mobile number', 'version 2026-11 (en)', '******3210', 'data-status="active"']) assert.ok(r.body.includes(text), text);
    assert.ok(!r.body.includes('9876543210'), 'the full mobile number is never shown');
    assert.ok(r.body.includes(`name="t" value="${token(a.withdraw_url)}"`));
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['referrer-policy'], 'no-referrer');
    assert.equal(r.headers['x-frame-options'], 'DENY');
    assert.match(r.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  });

  it('speaks to a person: operations by name, dates in India\'s time, no slugs or raw timestamps in the text', async () => {
    const c = (await t.call('POST', '/api/v1/consents', { body: { ...body('9000000001'), operations: ['upi-payment-status', 'mobile-to-bank-account'], collected_at: '2026-11-28T13:36:00Z', expires_at: '2027-01-05T00:05:00Z' } })).body.data;
    const r = await page(path(c.withdraw_url));
    assert.equal(r.statusCode, 200, r.body);
    const text = r.body.replace(/<[^>]*>/g, ' ');
    for (const shown of ['UPI payment', 'Bank account from mobile number', '28 Nov 2026, 7:06 pm IST', '5 Jan 2027, 5:35 am IST', 'Active']) assert.ok(text.includes(shown), `${shown} in ${text}`);
    assert.ok(!/upi-payment-status|mobile-to-bank-account/.test(text), 'no slug in the text');
    assert.ok(!/\d{4}-\d\d-\d\dT/.test(text), 'no ISO timestamp in the text');
    assert.ok(r.body.includes('datetime="2026-11-28T13:36:00.000Z"'), 'the exact moment stays machine-readable');
  });

  it('every registered operation has a name for people', async () => {
    const { OPERATION_SLUGS } = await import('../src/operations/registry.js');
    const { OPERATION_NAMES } = await import('../src/contract/operation-names.js');
    for (const slug of OPERATION_SLUGS) assert.ok(OPERATION_NAMES[slug], `no name for ${slug} in src/contract/operation-names.ts`);
  });

  it('a missing, wrong or other consent\'s token is a 404, for the page and the withdrawal', async () => {
    for (const url of [`/consents/${a.id}`, `/consents/${a.id}?t=${'A'.repeat(43)}`, `/consents/${a.id}?t=${token(b.withdraw_url)}`, `/consents/cns_nosuch?t=${token(a.withdraw_url)}`]) {
      assert.equal((await page(url)).statusCode, 404, url);
    }
    for (const form of ['', `t=${token(b.withdraw_url)}`, 't=short']) assert.equal((await post(a.id, form)).statusCode, 404, form);
    // A GET never withdraws, even with the token.
    assert.equal((await t.call('GET', `/api/v1/consents/${a.id}`)).body.data.status, 'active');
  });

  it('the button withdraws it as the API does: no call may cite it, and the page says so', async () => {
    assert.equal((await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: a.id } })).status, 200);
    const r = await post(a.id, `t=${encodeURIComponent(token(a.withdraw_url))}`);
    assert.equal(r.statusCode, 200, r.body);
    assert.match(r.body, /Consent withdrawn/);
    assert.match(r.body, /data-status="withdrawn"/);
    const api = (await t.call('GET', `/api/v1/consents/${a.id}`)).body.data;
    assert.equal(api.status, 'withdrawn');
    const cited = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: a.id } });
    assert.equal(cited.status, 422);
    assert.equal(cited.body.data.errors[0].field, 'consent_id');
    const audit = await t.store.db.selectFrom('audit_logs').select('request_body').where('method', '=', 'ADMIN').where('path', '=', 'consents withdraw').execute();
    assert.ok(audit.some((row) => (row.request_body as { consent_id: string; actor: string }).actor === 'subject:consent-page'));
    const again = await page(path(a.withdraw_url));
    assert.match(again.body, /data-status="withdrawn"/);
    assert.ok(!again.body.includes('<form'), 'no button on an ended consent');
    assert.equal((await t.call('GET', `/api/v1/consents/${b.id}`)).body.data.status, 'active', 'the other consent is untouched');
  });

  it('the API still refuses a form body with a 415', async () => {
    const r = await t.call('POST', '/api/v1/consents', { payload: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(r.status, 415);
  });
});
