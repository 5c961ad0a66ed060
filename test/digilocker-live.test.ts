// Live DigiLocker end to end through Sangam's own API (CONTRACT §9): a partner of kind `digilocker`
// pointed at the DigiLocker emulator. initialize answers TUP with an authorization URL carrying PKCE;
// the user's consent comes back to /partners/<name>/oauth/callback; download verifies the signed
// eAadhaar XML and answers the seed's fields; Xml_Url serves the XML exactly as signed; a tampered or
// untrusted XML is a business failure with none of its content; another account's key gets 404.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { startDigilockerEmulator } from '../partner-sim/digilocker/server.js';
import { partnerEnv } from '../partner-sim/kind.js';
import { freePort, startPartnerApp, type PartnerApp } from './live-harness.js';
import { eventually, PATHS, ref } from './harness.js';

type Emulator = Awaited<ReturnType<typeof startDigilockerEmulator>>;

describe('live DigiLocker through a digilocker partner', () => {
  let t: PartnerApp;
  let dl: Emulator;
  let base: string;
  before(async () => {
    dl = await startDigilockerEmulator({});
    const vars = { CLIENT_ID: dl.clientId, CLIENT_SECRET: dl.clientSecret, TRUST_ANCHORS: dl.anchorsPath };
    t = await startPartnerApp({ ...partnerEnv('dl', 'digilocker', dl.url, { ...vars, REVOKE_RETRY_S: '0.1' }), SANGAM_PARTNER_TIMEOUT_MS: '3000' }, { port: await freePort(), topUpInr: 1_000 });
    base = t.base;
  });
  after(async () => {
    await t.close();
    await dl.close();
  });

  /** initialize, then the user's consent as a browser would carry it; returns the client id. */
  async function consented(resident: string | null): Promise<string> {
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: { reference_id: ref('init'), consent: true, redirect_url: 'https://client.example/done' } });
    assert.equal(init.status, 200, init.text);
    assert.equal(init.body.statuscode, 'TUP');
    const { doclocker__client__id: clientId, authorization_url: authUrl } = init.body.data as { doclocker__client__id: string; authorization_url: string };
    const u = new URL(authUrl);
    assert.equal(`${u.origin}${u.pathname}`, `${dl.url}/oauth2/1/authorize`);
    assert.equal(u.searchParams.get('response_type'), 'code');
    assert.equal(u.searchParams.get('client_id'), dl.clientId);
    assert.equal(u.searchParams.get('redirect_uri'), `${base}/partners/dl/oauth/callback`);
    assert.equal(u.searchParams.get('code_challenge_method'), 'S256');
    assert.match(u.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((u.searchParams.get('state') ?? '').length >= 16);
    dl.setFaults(resident ? { auto_allow: resident } : { deny_consent: true });
    const atDigilocker = await fetch(authUrl, { redirect: 'manual' });
    assert.equal(atDigilocker.status, 302);
    const back = await fetch(atDigilocker.headers.get('location')!, { redirect: 'manual' });
    assert.equal(back.status, 302, await back.text());
    const done = new URL(back.headers.get('location')!);
    assert.equal(done.origin, 'https://client.example');
    assert.equal(done.searchParams.get('doclocker__client__id'), clientId);
    assert.equal(done.searchParams.get('status'), resident ? 'authorized' : 'denied');
    dl.setFaults({});
    return clientId;
  }

  const download = (clientId: string, key = t.liveKey) =>
    t.call('POST', PATHS.aadhaar, { key, body: { reference_id: ref('aad'), consent: true, doclocker__client__id: clientId } });

  it('consent, then the verified eAadhaar record with the seed fields; Xml_Url serves the signed XML', async () => {
    const clientId = await consented('ananya');
    const r = await download(clientId);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN', r.text);
    const x = r.body.data.Aadhaar_Xml_Data;
    assert.ok(x.Full_Name && x.Dob && x.Gender);
    assert.match(x.Masked_Aadhaar, /^X+[0-9]{4}$/);
    assert.ok(typeof x.Profile_Image === 'string' && x.Profile_Image.length > 100);
    const xml = await fetch(r.body.data.Xml_Url);
    assert.equal(xml.status, 200);
    const body = await xml.text();
    assert.match(body, /<Signature[\s>]/);
    assert.ok(body.includes(x.Full_Name), 'the served document is the signed eAadhaar XML');
    // The photo and the full number never reach the audit store.
    const audit = await t.store.db.selectFrom('audit_logs').select(['request_body', 'response_body']).execute();
    assert.ok(!JSON.stringify(audit).includes(x.Profile_Image.slice(0, 64)));
  });

  it('after an erasure of its reference, Xml_Url answers 404 in the envelope, not 500 (issue #22)', async () => {
    const r = await download(await consented('ananya'));
    assert.equal(r.body.statuscode, 'TXN', r.text);
    assert.equal((await fetch(r.body.data.Xml_Url)).status, 200);
    const erased = await t.call('POST', '/api/v1/erasures', { key: t.liveKey, body: { reference_id: r.body.data.reference_id } });
    assert.equal(erased.status, 200, erased.text);
    const gone = await fetch(r.body.data.Xml_Url);
    const text = await gone.text();
    assert.equal(gone.status, 404, text);
    const body = JSON.parse(text);
    assert.equal(body.data.Errorcode, 109);
    assert.match(body.message, /erased/);
    assert.equal(body.data.request_id, gone.headers.get('x-request-id'));
    assert.doesNotMatch(text, /Signature|UidData/);
  });

  it('a tampered or untrusted XML is a business failure that returns none of its content', async () => {
    for (const [fault, why] of [
      ['tamper_xml', /signature/i],
      ['untrusted_signer', /trust|signer/i],
    ] as const) {
      const clientId = await consented('rohan');
      dl.setFaults({ [fault]: true });
      const r = await download(clientId);
      dl.setFaults({});
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.ok, false);
      assert.equal(r.body.data.status, 'failed');
      assert.match(r.body.data.message, why);
      assert.equal(r.body.data.Aadhaar_Xml_Data, undefined);
    }
  });

  it('a revoke DigiLocker keeps failing is counted in /metrics and puts the download in Needs attention', async () => {
    const clientId = await consented('kiran');
    dl.setFaults({ revoke_error_next: 1000 });
    const r = await download(clientId);
    assert.equal(r.body.statuscode, 'TXN', 'the download itself succeeded');
    const flagged = await eventually(async () => {
      const row = await t.store.db.selectFrom('transactions').select(['flagged', 'status']).where('reference_id', '=', r.body.data.reference_id).executeTakeFirst();
      return row?.flagged ? row : undefined;
    });
    assert.equal(flagged.status, 'success', 'its state is unchanged');
    assert.match(flagged.flagged!, /DigiLocker has not confirmed revoking this request's access token after 3 attempts/);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /sangam_partner_alarms_total\{partner="dl",kind="token_revoke_failed"\} [3-9]/);
    dl.setFaults({});
    await eventually(async () => (await t.store.db.selectFrom('partner_sessions').select('key').where('key', 'like', 'revoke:%').executeTakeFirst()) === undefined || undefined);
  });

  it('denied consent is a failed download; another account’s key gets 404', async () => {
    const denied = await consented(null);
    const r = await download(denied);
    assert.equal(r.body.data.status, 'failed');
    assert.match(r.body.data.message, /denied/i);
    const otherAccount = (await createAccount(t.store.db, 'Other')).id;
    const other = await createKey(t.store.db, otherAccount, 'live');
    await addEntry(t.store.db, otherAccount, 'live', '127.0.0.1');
    await approve(t.store.db, otherAccount, OPERATION_SLUGS);
    const mine = await consented('kiran');
    const foreign = await download(mine, other.key);
    assert.equal(foreign.status, 404);
  });
});
