import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';

describe('signature-match (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('answers the envelope with the standard fields and a 0-100 score', async () => {
    const body = VALID.signature();
    const r = await t.call('POST', PATHS.signature, { body });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'TXN');
    assert.equal(r.body.ok, true);
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.equal(d.reference_id, body.reference_id);
    assert.ok(!Number.isNaN(Date.parse(d.verified_at)));
    assert.equal(typeof d.message, 'string');
    assert.ok(Number.isInteger(d.name_match_score) && d.name_match_score >= 0 && d.name_match_score <= 100);
  });

  it('is deterministic: the same input reads the same name, and that name scores 100', async () => {
    const input = 'signature-scan-42';
    const a = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input, name: undefined } });
    const extracted = a.body.data.extracted_name;
    const b = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input, name: extracted.toLowerCase() } });
    assert.equal(b.body.data.extracted_name, extracted);
    assert.equal(b.body.data.name_match_score, 100);
    const c = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input, name: 'Zzyzx Qwerty' } });
    assert.ok(c.body.data.name_match_score < 50);
  });

  it('accepts bodies up to 5 MiB (a scanned image) and refuses larger with 413', async () => {
    const big = 'A'.repeat(4 * 1024 * 1024);
    const ok = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input: big } });
    assert.equal(ok.status, 200);
    const tooBig = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input: 'A'.repeat(5 * 1024 * 1024 + 10) } });
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.body.data.Errorcode, 111);
  });
});
