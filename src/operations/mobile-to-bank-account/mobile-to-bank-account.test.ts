import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';
import { bankNameOf } from '../../../shared/ifsc.js';

// The oracle is the `ifsc` package's own validate and data, not our reading of them (its index.js
// loads an HTTP client but does no I/O until fetchDetails, which is never called here).
const require = createRequire(import.meta.url);
const { validate } = require('ifsc') as { validate(code: string): boolean };
const BANK_NAMES = require('ifsc/src/banknames.json') as Record<string, string>;

describe('mobile-to-bank-account (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const lookup = (extra: Record<string, unknown> = {}) => t.call('POST', PATHS.bank, { body: { ...VALID.bank(), ...extra } });

  it('returns the linked account, masked, at a real branch with its real bank name', async () => {
    const r = await lookup();
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.equal(d.service, 'mobile-to-bank-account');
    assert.equal(d.account.account_number, 'XXXXXXXX3210');
    assert.equal(typeof d.account.account_holder_name, 'string');
    // 9876543210 ends in 0: the bank is HDFC Bank, the branch one of its real ones.
    assert.match(d.account.ifsc, /^HDFC0\d{6}$/);
    assert.ok(validate(d.account.ifsc), d.account.ifsc);
    assert.equal(d.account.bank_name, 'HDFC Bank');
    assert.equal(d.account.branch, null);
    for (const k of ['account_match', 'account_number_match', 'ifsc_match']) assert.equal(d[k], undefined, k);
  });

  it('accepts the seed detailed body, where the mobile travels as input', async () => {
    const { mobile, ...rest } = VALID.bank();
    const r = await t.call('POST', PATHS.bank, { body: { ...rest, input: mobile } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.account.account_number, 'XXXXXXXX3210');
  });

  it('over 200 mobiles every answer is a directory code under its own bank name, the same each time', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const mobile = String(6_000_000_000 + i * 19_999_997);
      const r = await lookup({ mobile });
      assert.equal(r.status, 200, r.text);
      const { ifsc, bank_name: name } = r.body.data.account;
      assert.ok(validate(ifsc), `${mobile} → ${ifsc} is not in the IFSC directory`);
      assert.equal(name, BANK_NAMES[ifsc.slice(0, 4)], ifsc);
      seen.add(ifsc);
    }
    assert.ok(seen.size > 150, `only ${seen.size} distinct branches`);
    const again = await lookup({ mobile: '6019999997' });
    const first = await lookup({ mobile: '6019999997' });
    assert.equal(again.body.data.account.ifsc, first.body.data.account.ifsc);
  });

  it('account_number_match and ifsc_match say which of the fields the client holds match', async () => {
    const { ifsc } = (await lookup()).body.data.account;
    const both = (await lookup({ account_number: '919876543210', ifsc })).body.data;
    assert.deepEqual([both.account_number_match, both.ifsc_match, both.account_match], [true, true, true]);
    const wrongNumber = (await lookup({ account_number: '123456789012', ifsc })).body.data;
    assert.deepEqual([wrongNumber.account_number_match, wrongNumber.ifsc_match, wrongNumber.account_match], [false, true, false]);
    const numberOnly = (await lookup({ account_number: '919876543210' })).body.data;
    assert.equal(numberOnly.account_number_match, true);
    assert.equal(numberOnly.account_match, true);
    assert.equal('ifsc_match' in numberOnly, false);
    const ifscOnly = (await lookup({ ifsc })).body.data;
    assert.equal(ifscOnly.ifsc_match, true);
    assert.equal('account_number_match' in ifscOnly, false);
  });

  it("a real code of another bank (or another branch) does not match the account's", async () => {
    assert.ok(validate('SBIN0000001'));
    const wrongBank = (await lookup({ account_number: '919876543210', ifsc: 'SBIN0000001' })).body.data;
    assert.equal(wrongBank.status, 'success');
    assert.equal(wrongBank.account_number_match, true);
    assert.equal(wrongBank.ifsc_match, false);
    assert.equal(wrongBank.account_match, false);
    assert.equal(wrongBank.account.bank_name, 'HDFC Bank'); // the linked account's bank, not the code sent
    const { ifsc } = (await lookup()).body.data.account;
    const other = ifsc === 'HDFC0000001' ? 'HDFC0000002' : 'HDFC0000001';
    assert.ok(validate(other));
    assert.equal((await lookup({ ifsc: other })).body.data.ifsc_match, false);
  });

  it('a well-formed IFSC that does not exist is a 422 naming ifsc, and nothing is recorded', async () => {
    for (const ifsc of ['QQQQ0123456', 'HDFC0ZZZZZZ', 'BOTM0XEEMRA']) {
      assert.equal(validate(ifsc), false, ifsc);
      const body = { ...VALID.bank(), ifsc };
      const r = await t.call('POST', PATHS.bank, { body });
      assert.equal(r.status, 422, ifsc);
      assert.equal(r.body.data.Errorcode, 104);
      assert.deepEqual(r.body.data.errors, [{ field: 'ifsc', message: 'ifsc is not a known IFSC: no bank branch has this code' }]);
      assert.equal((await t.call('GET', `/api/v1/transactions/${body.reference_id}`)).status, 404);
    }
    const malformed = await lookup({ ifsc: 'HDFC123' });
    assert.equal(malformed.status, 422);
    assert.deepEqual(malformed.body.data.errors, [{ field: 'ifsc', message: 'ifsc must be an 11-character IFSC such as HDFC0001234' }]);
    const number = await lookup({ ifsc: 12345678901 });
    assert.deepEqual(number.body.data.errors, [{ field: 'ifsc', message: 'ifsc must be an 11-character IFSC such as HDFC0001234' }]);
  });

  it('any code in the directory is accepted, leased (sublet) branches included', async () => {
    for (const ifsc of ['KKBK0000261', 'PUNB0026200', 'HDFC0CKUB01', 'KSCB0006001']) {
      const r = await lookup({ ifsc });
      assert.equal(r.status, 200, `${ifsc}: ${r.text}`);
      assert.equal(r.body.data.ifsc_match, false);
    }
  });

  it('the directory names the bank that operates a code, as the ifsc package documents', () => {
    assert.equal(bankNameOf('KKBK0000261'), 'Kotak Mahindra Bank');
    assert.equal(bankNameOf('PUNB0026200'), 'Punjab National Bank');
    assert.equal(bankNameOf('KSCB0006001'), 'Tumkur District Central Bank'); // sublet.json
    assert.equal(bankNameOf('HDFC0CKUB01'), 'Khamgaon Urban Co-operative Bank');
    assert.equal(bankNameOf('QQQQ0123456'), null);
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

  it('the OpenAPI document describes the answer, with the match flags and the branch', async () => {
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    // The answer is one schema per statuscode; the success one carries the account.
    const variants: Array<{ properties: { statuscode: { enum: string[] }; data: any } }> = doc.paths[PATHS.bank].post.responses['200'].content['application/json'].schema.anyOf; // eslint-disable-line @typescript-eslint/no-explicit-any
    const data = variants.find((v) => v.properties.statuscode.enum[0] === 'TXN')!.properties.data;
    assert.ok(data.required.includes('account'), 'every success carries the account');
    for (const k of ['account_number_match', 'ifsc_match', 'account_match']) assert.equal(data.properties[k].type, 'boolean', k);
    assert.ok(data.properties.account.properties.branch);
    assert.equal(data.properties.account_match.deprecated, true);
  });
});
