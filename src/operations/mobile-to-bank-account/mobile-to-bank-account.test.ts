import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';

describe('mobile-to-bank-account (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('returns the linked account, masked, with service', async () => {
    const r = await t.call('POST', PATHS.bank, { body: VALID.bank() });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.equal(d.service, 'mobile-to-bank-account');
    assert.equal(d.account.account_number, 'XXXXXXXX3210');
    assert.match(d.account.ifsc, /^[A-Z]{4}0[A-Z0-9]{6}$/);
    assert.equal(typeof d.account.account_holder_name, 'string');
    assert.equal(typeof d.account.bank_name, 'string');
    assert.equal(d.account_match, undefined);
  });

  it('accepts the seed detailed body, where the mobile travels as input', async () => {
    const { mobile, ...rest } = VALID.bank();
    const r = await t.call('POST', PATHS.bank, { body: { ...rest, input: mobile } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.account.account_number, 'XXXXXXXX3210');
  });

  it('reports account_match against the account and IFSC the client holds', async () => {
    const yes = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), account_number: '919876543210', ifsc: 'HDFC0987654' } });
    assert.equal(yes.body.data.account_match, true);
    const no = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), account_number: '123456789012', ifsc: 'HDFC0001234' } });
    assert.equal(no.body.data.account_match, false);
  });

  it('9000000000 has no linked account: a business failure, HTTP 200 with ERR', async () => {
    const body = { ...VALID.bank(), mobile: '9000000000' };
    const r = await t.call('POST', PATHS.bank, { body });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.ok, false);
    assert.equal(r.body.data.status, 'failed');
    assert.equal(r.body.data.Errorcode, 120);
    assert.equal(r.body.data.reference_id, body.reference_id);
    assert.match(r.body.data.message, /no bank account/i);
    assert.ok(r.body.data.verified_at);
  });
});
