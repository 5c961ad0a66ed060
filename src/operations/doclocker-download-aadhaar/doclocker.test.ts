import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';

describe('document-locker initialize, consent and download (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const clientPath = (url: string) => new URL(url).pathname;

  it('download answers the seed §2.5 shape with a masked number and a real PNG photo', async () => {
    const body = VALID.aadhaar();
    const r = await t.call('POST', PATHS.aadhaar, { body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.Errorcode, 100);
    assert.equal(d.Status, 'success');
    assert.equal(typeof d.Message, 'string');
    assert.equal(d.status, 'success');
    const x = d.Aadhaar_Xml_Data;
    for (const f of ['Full_Name', 'Care_Of', 'Dob', 'Gender', 'Masked_Aadhaar', 'Full_Address', 'Profile_Image']) assert.equal(typeof x[f], 'string', f);
    assert.deepEqual(Object.keys(x.Address).sort(), ['Country', 'Dist', 'State', 'Street']);
    assert.equal(x.Masked_Aadhaar, 'XXXXXXXX2346');
    assert.match(x.Dob, /^\d{2}-\d{2}-\d{4}$/);
    const png = Buffer.from(x.Profile_Image, 'base64');
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.ok(!JSON.stringify(r.body).includes('234123412346'));

    const again = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: body.aadhaar_number } });
    assert.equal(again.body.data.Aadhaar_Xml_Data.Full_Name, x.Full_Name, 'same number, same sandbox identity');

    const xml = await t.call('GET', clientPath(d.Xml_Url) + new URL(d.Xml_Url).search, { key: null });
    assert.equal(xml.status, 200);
    assert.match(String(xml.headers['content-type']), /xml/);
    assert.ok(xml.text.includes(`name="${x.Full_Name}"`));
    assert.ok(xml.text.includes('XXXXXXXX2346'));
    assert.ok(!xml.text.includes('234123412346'));

    const tampered = d.Xml_Url.replace(/signature=(.)/, (_: string, c: string) => `signature=${c === 'Z' ? 'Y' : 'Z'}`);
    const bad = await t.call('GET', clientPath(tampered) + new URL(tampered).search, { key: null });
    assert.equal(bad.status, 404);
  });

  it('accepts the client id as input (the seed detailed body) and a 16-digit VID', async () => {
    const { doclocker__client__id, ...rest } = VALID.aadhaar();
    const r = await t.call('POST', PATHS.aadhaar, { body: { ...rest, input: doclocker__client__id, aadhaar_number: '9123456789012345' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.Aadhaar_Xml_Data.Masked_Aadhaar, 'XXXXXXXX2345');
  });

  it('initialize → download before consent fails ("consent pending") → Allow → download succeeds', async () => {
    const init = await t.call('POST', PATHS.init, { body: { ...VALID.init(), redirect_url: 'https://client.example/kyc/done' } });
    assert.equal(init.status, 200, init.text);
    assert.equal(init.body.statuscode, 'TUP');
    const { doclocker__client__id: id, authorization_url: url, expires_at, status } = init.body.data;
    assert.equal(status, 'pending');
    assert.match(id, /^doclocker_/);
    assert.ok(Date.parse(expires_at) > Date.now());

    const early = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
    assert.equal(early.body.data.status, 'failed');
    assert.match(early.body.data.message, /consent pending/i);

    const page = await t.call('GET', clientPath(url), { key: null });
    assert.equal(page.status, 200);
    assert.match(page.text, /Allow/);
    const allow = await t.call('POST', `${clientPath(url)}/allow`, { key: null });
    assert.equal(allow.status, 303);
    const to = new URL(String(allow.headers.location));
    assert.equal(to.origin + to.pathname, 'https://client.example/kyc/done');
    assert.equal(to.searchParams.get('status'), 'authorized');
    assert.equal((await t.call('POST', `${clientPath(url)}/deny`, { key: null })).status, 409, 'a decision is final');

    const ok = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
    assert.equal(ok.body.data.status, 'success');
    const initTx = await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`);
    assert.equal(initTx.body.data.status, 'success');
  });

  it('Deny makes the download fail with "consent denied"', async () => {
    const init = await t.call('POST', PATHS.init, { body: VALID.init() });
    const path = clientPath(init.body.data.authorization_url);
    assert.equal((await t.call('POST', `${path}/deny`, { key: null })).status, 200);
    const r = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: init.body.data.doclocker__client__id } });
    assert.match(r.body.data.message, /denied/i);
  });

  it('the photo never enters the store', async () => {
    const rows = await t.store.db.selectFrom('transactions').select('result').where('operation', '=', 'doclocker-download-aadhaar').execute();
    assert.ok(rows.length > 0);
    for (const r of rows) assert.ok(!JSON.stringify(r.result).includes('Profile_Image'));
    const keys = await t.store.db.selectFrom('idempotency_keys').select('response_body').where('operation', '=', 'doclocker-download-aadhaar').execute();
    for (const k of keys) assert.ok(!String(k.response_body).includes('iVBOR'));
  });
});
