// Issue #22, finding 4: an Xml_Url whose reference was erased (POST /api/v1/erasures) answered 500:
// the XML was built from a result the erasure had emptied. It is now the envelope's 404 / 109, with
// the request id, in the sandbox and in live (the partner simulator; the DigiLocker partner's stored
// document is covered in test/digilocker-live.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, startApp, VALID, type Response, type TestApp } from './harness.js';
import { startLive, type LiveApp } from './live-harness.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The link's path and query, to call the app with. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The answer of a link whose document was erased: 404 / 109 in the envelope, nothing of the document. */
function assertErased(r: Response): void {
  assert.equal(r.status, 404, r.text);
  assert.equal(r.body.statuscode, 'ERR');
  assert.equal(r.body.ok, false);
  assert.equal(r.body.data.Errorcode, 109);
  assert.match(r.body.message, /erased/);
  assert.match(String(r.headers['x-request-id']), /^req_[0-9A-Za-z]{20}$/);
  assert.equal(r.body.data.request_id, r.headers['x-request-id']);
}

/** Downloads, checks the link serves the XML, erases the reference with `key`, and answers the link's next answer. */
async function downloadEraseFetch(t: TestApp, key: string, clientId: string): Promise<Response> {
  const body = { ...VALID.aadhaar(), doclocker__client__id: clientId };
  const r = await t.call('POST', PATHS.aadhaar, { key, body });
  assert.equal(r.body.data.status, 'success', r.text);
  const link = local(r.body.data.Xml_Url);
  const before = await t.call('GET', link, { key: null });
  assert.equal(before.status, 200, before.text);
  assert.match(before.text, /<MaskedUid>|<Signature/);
  const erased = await t.call('POST', '/api/v1/erasures', { key, body: { reference_id: body.reference_id } });
  assert.equal(erased.status, 200, erased.text);
  return t.call('GET', link, { key: null });
}

describe('Xml_Url after an erasure: sandbox', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('a sandbox download whose reference was erased: 404 in the envelope, not 500', async () => {
    assertErased(await downloadEraseFetch(t, t.key, VALID.aadhaar().doclocker__client__id));
  });

  it('an initialized and allowed client id, erased the same way', async () => {
    const init = await t.call('POST', PATHS.init, { body: VALID.init() });
    const allow = await t.call('POST', `${new URL(init.body.data.authorization_url).pathname}/allow`, { key: null, payload: '', headers: FORM });
    assert.equal(allow.status, 200, allow.text);
    assertErased(await downloadEraseFetch(t, t.key, init.body.data.doclocker__client__id));
  });
});

describe('Xml_Url after an erasure: live (partner simulator)', () => {
  let t: LiveApp;
  before(async () => (t = await startLive()));
  after(() => t.close());

  it('a live download whose reference was erased: 404 in the envelope, not 500', async () => {
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: VALID.init() });
    assert.equal(init.body.statuscode, 'TUP', init.text);
    const allow = await fetch(`${init.body.data.authorization_url}/allow`, { method: 'POST', headers: FORM, body: '' });
    assert.equal(allow.status, 200, await allow.text());
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`, { key: t.liveKey })).body.data.status === 'success');
    assertErased(await downloadEraseFetch(t, t.liveKey, init.body.data.doclocker__client__id));
    await t.assertLedger();
  });
});
