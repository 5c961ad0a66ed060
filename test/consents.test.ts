// Consent records (CONTRACT §13) through the HTTP API on the real store: a consent recorded with a
// receipt a stock JOSE library verifies (and a changed one it refuses), cited by an operation and
// counted, refused with a 422 naming consent_id when it is another account's or environment's, does
// not cover the operation, has expired or was withdrawn (nothing recorded then); a store dump without
// the subject's mobile or e-mail; withdrawal that fails a waiting sandbox session and erases what was
// done under it; expiry by the worker; an account that requires consent_id on live calls; and, live,
// a held DigiLocker token revoked at the emulator on withdrawal.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { createAccount, createKey } from '../src/accounts/store.js';
import { createEndpoint } from '../src/webhooks/store.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { ConsentExpiry } from '../src/consents/expiry.js';
import { accounts } from '../src/admin/actions/index.js';
import { runCommand } from '../src/admin/run.js';
import { startDigilockerEmulator } from '../partner-sim/digilocker/server.js';
import { freePort, startPartnerApp } from './live-harness.js';
import { dumpTables, eventually, PATHS, ref, VALID, type TestApp } from './harness.js';

const MOBILE = '9123456780';
const EMAIL = 'priya.sharma@example.org';

const consentBody = (over: Record<string, unknown> = {}) => ({
  subject: { mobile: MOBILE, email: EMAIL, reference: 'cust-000042' },
  purpose: { code: 'kyc-onboarding', text: 'To verify your bank account when you open a wallet' },
  operations: ['mobile-to-bank-account', 'doclocker-initialize', 'doclocker-download-aadhaar'],
  notice: { version: '2026-11', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
  channel: 'app',
  ...over,
});

const refusedFor = (r: { status: number; body: { data: { errors?: Array<{ field: string }> } } }) => {
  assert.equal(r.status, 422, JSON.stringify(r.body));
  assert.ok(r.body.data.errors?.some((e) => e.field === 'consent_id'), JSON.stringify(r.body));
};

describe('consent records (sandbox)', () => {
  let t: TestApp;
  before(async () => {
    // Live calls allowed too: allow-listed, approved, topped up. A sandbox pending lasts long enough to
    // be still pending at the next call, on a busy machine too.
    t = await startPartnerApp({ SANGAM_SANDBOX_PENDING_MS: '3000' });
  });
  after(async () => t.close());

  const create = async (over: Record<string, unknown> = {}, key = t.key) => {
    const r = await t.call('POST', '/api/v1/consents', { key, body: consentBody(over) });
    assert.equal(r.status, 200, r.text);
    return r.body.data as { id: string; status: string; receipt: string; subject: Record<string, string> };
  };
  const txnCount = async (referenceId: string) =>
    Number((await t.store.db.selectFrom('transactions').select((eb) => eb.fn.countAll<string>().as('n')).where('reference_id', '=', referenceId).executeTakeFirstOrThrow()).n);

  it('records a consent with a receipt a stock JOSE library verifies; a changed receipt is refused', async () => {
    const c = await create();
    assert.equal(c.status, 'active');
    assert.deepEqual(c.subject, { mobile: '******6780', email: '********************.org', reference: '*******0042' });
    const keys = await t.call('GET', '/api/v1/consents/public-key');
    assert.equal(keys.status, 200, keys.text);
    const jwks = createLocalJWKSet(keys.body.data);
    const { payload, protectedHeader } = await jwtVerify(c.receipt, jwks, { typ: 'consent-receipt+jwt' });
    assert.equal(protectedHeader.alg, 'EdDSA');
    assert.equal(protectedHeader.kid, keys.body.data.keys[0].kid);
    assert.equal(payload.jti, c.id);
    assert.deepEqual(payload.operations, consentBody().operations);
    assert.ok(!JSON.stringify(payload).includes(MOBILE) && !JSON.stringify(payload).includes(EMAIL), 'no subject value in clear');
    const [h, p, s] = c.receipt.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const changed = `${h}.${Buffer.from(JSON.stringify({ ...claims, operations: OPERATION_SLUGS })).toString('base64url')}.${s}`;
    await assert.rejects(jwtVerify(changed, jwks), /signature verification failed/);
    // The CLI verb, offline with the published key in a file, and with the store's own key.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'consent-')), 'keys.json');
    writeFileSync(file, keys.text);
    const verified = await runCommand(t.store.db, ['consents', 'verify', c.receipt, '--public-key', file]);
    assert.equal(verified.code, 0, JSON.stringify(verified.output));
    assert.equal((verified.output.claims as { jti: string }).jti, c.id);
    assert.equal((await runCommand(t.store.db, ['consents', 'verify', c.receipt])).code, 0);
    const refused = await runCommand(t.store.db, ['consents', 'verify', changed, '--public-key', file]);
    assert.equal(refused.code, 1);
    assert.match(String(refused.output.reason), /signature does not match/);
    // The receipt's hash is in the audit chain.
    const rows = await t.store.db.selectFrom('audit_logs').select(['request_body', 'data_class']).where('path', '=', 'consents create').execute();
    const row = rows.find((r) => JSON.stringify(r.request_body).includes(createHash('sha256').update(c.receipt).digest('hex')));
    assert.equal(row?.data_class, 'consent', 'kept past the content clocks');
  });

  it('the receipt key is public: no API key, a bare JWK Set at /.well-known/jwks.json that jose fetches, cacheable and limited per IP', async () => {
    const c = await create();
    const enveloped = await t.call('GET', '/api/v1/consents/public-key', { key: null });
    assert.equal(enveloped.status, 200, enveloped.text);
    assert.equal(enveloped.body.statuscode, 'TXN');
    assert.match(String(enveloped.headers['cache-control']), /^public, max-age=\d+$/);
    const bare = await t.call('GET', '/.well-known/jwks.json', { key: null });
    assert.equal(bare.status, 200, bare.text);
    assert.match(String(bare.headers['content-type']), /^application\/jwk-set\+json/);
    assert.match(String(bare.headers['cache-control']), /^public, max-age=\d+$/);
    assert.deepEqual(bare.body, enveloped.body.data, 'the same set, without the envelope');
    // A stock JOSE verifier given only the URL, over real HTTP, with no key.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const remote = createRemoteJWKSet(new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(c.receipt, remote, { typ: 'consent-receipt+jwt', algorithms: ['EdDSA'] });
    assert.equal(payload.jti, c.id);
    // The OpenAPI document asks for no key on either.
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    for (const p of ['/api/v1/consents/public-key', '/.well-known/jwks.json']) assert.deepEqual(doc.paths[p].get.security, [], p);
    // An anonymous client cannot read (and audit) it without end: per client IP, a 429 with Retry-After.
    let limited: Awaited<ReturnType<TestApp['call']>> | undefined;
    for (let i = 0; i < 100 && !limited; i++) {
      const r = await t.call('GET', '/api/v1/consents/public-key', { key: null, ip: '203.0.113.77' });
      if (r.status !== 200) limited = r;
    }
    assert.equal(limited?.status, 429, 'limited within 100 reads');
    assert.equal(limited!.body.data.Errorcode, 108);
    assert.ok(Number(limited!.headers['retry-after']) >= 1);
    assert.equal((await t.call('GET', '/.well-known/jwks.json', { key: null, ip: '203.0.113.77' })).status, 429, 'one bucket for both forms');
    assert.equal((await t.call('GET', '/.well-known/jwks.json', { key: null, ip: '203.0.113.78' })).status, 200, 'another address is not affected');
  });

  it('is cited, counted and listed; refuses bad input with 422s naming the field', async () => {
    const c = await create();
    const call = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: c.id } });
    assert.equal(call.status, 200, call.text);
    const got = await t.call('GET', `/api/v1/consents/${c.id}`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.data.uses.count, 1);
    assert.deepEqual(got.body.data.uses.request_ids, [call.headers['x-request-id']]);
    assert.ok(got.body.data.uses.last_used_at);
    const list = await t.call('GET', '/api/v1/consents', { query: { subject_mobile: MOBILE } });
    assert.ok(list.body.data.items.some((i: { id: string }) => i.id === c.id));
    const bad = await t.call('POST', '/api/v1/consents', { body: consentBody({ operations: ['teleport'] }) });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.data.errors[0].field, 'operations');
    const empty = await t.call('POST', '/api/v1/consents', { body: consentBody({ subject: {} }) });
    assert.equal(empty.status, 422);
    assert.equal(empty.body.data.errors[0].field, 'subject');
    refusedFor(await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: 'not-a-consent' } }));
  });

  it('refuses another account\'s, another environment\'s, an uncovered, an expired and a withdrawn consent; nothing is recorded', async () => {
    const other = await createAccount(t.store.db, 'Other Fintech');
    const otherKey = await createKey(t.store.db, other.id, 'sandbox');
    const theirs = await create({}, otherKey.key);
    const live = await create({}, t.liveKey);
    const expired = await create({ expires_at: '2025-06-01T00:00:00Z' });
    assert.equal(expired.status, 'active', 'recorded as given; the worker marks it expired, and it cannot be cited meanwhile');
    const withdrawn = await create();
    assert.equal((await t.call('POST', `/api/v1/consents/${withdrawn.id}/withdraw`)).body.data.status, 'withdrawn');
    const uncovered = await create();
    const cases: Array<[string, string, () => Record<string, unknown>]> = [
      [theirs.id, PATHS.bank, VALID.bank],
      [live.id, PATHS.bank, VALID.bank],
      [uncovered.id, PATHS.names, VALID.names],
      [expired.id, PATHS.bank, VALID.bank],
      [withdrawn.id, PATHS.bank, VALID.bank],
    ];
    for (const [id, path, body] of cases) {
      const b: Record<string, unknown> = { ...body(), consent_id: id };
      refusedFor(await t.call('POST', path, { body: b }));
      assert.equal(await txnCount(b.reference_id as string), 0, `nothing recorded for ${id}`);
    }
    assert.equal((await t.call('GET', `/api/v1/consents/${theirs.id}`)).status, 404, 'another account\'s consent does not exist');
    assert.equal((await t.call('GET', `/api/v1/consents/${live.id}`)).status, 404, 'nor another environment\'s');
    assert.equal((await t.call('POST', `/api/v1/consents/${theirs.id}/withdraw`)).status, 404);
  });

  it('withdrawal fails a waiting document-locker session, erases what was done under it and announces itself', async () => {
    await createEndpoint(t.store.db, { accountId: t.accountId, environment: 'sandbox' }, 'http://127.0.0.1:9/hooks', ['consent.withdrawn', 'consent.expired']);
    const c = await create();
    const bank = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: c.id } });
    assert.equal(bank.body.statuscode, 'TXN', bank.text);
    assert.ok(bank.body.data.account, bank.text);
    const init = await t.call('POST', PATHS.init, { body: { ...VALID.init(), consent_id: c.id } });
    assert.equal(init.body.statuscode, 'TUP', init.text);
    const w = await t.call('POST', `/api/v1/consents/${c.id}/withdraw`);
    assert.equal(w.status, 200, w.text);
    assert.equal(w.body.data.status, 'withdrawn');
    assert.equal(w.body.data.effect.sessions_failed, 1);
    assert.deepEqual(w.body.data.effect.references_erased.sort(), [bank.body.data.reference_id, init.body.data.reference_id].sort());
    const session = await t.store.db.selectFrom('doclocker_sessions').select('status').where('client_id', '=', init.body.data.doclocker__client__id).executeTakeFirstOrThrow();
    assert.equal(session.status, 'denied');
    const lookup = await t.call('GET', `/api/v1/transactions/${bank.body.data.reference_id}`);
    assert.equal(lookup.body.data.status, 'success', 'the outcome stays');
    assert.ok(lookup.body.data.erased_at, lookup.text);
    assert.equal(lookup.body.data.account, undefined, 'the content is gone');
    const initTx = await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`);
    assert.equal(initTx.body.data.status, 'failed');
    const events = await t.store.db.selectFrom('webhook_events').select(['type', 'payload']).where('type', '=', 'consent.withdrawn').execute();
    assert.ok(events.some((e) => JSON.parse(e.payload).data.consent_id === c.id));
    refusedFor(await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: c.id } }));
  });

  it('expiry: the worker marks a lapsed consent expired, announces it and erases what was done under it', async () => {
    const c = await create({ expires_at: new Date(Date.now() + 60_000).toISOString() });
    const bank = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), consent_id: c.id } });
    assert.equal(bank.status, 200, bank.text);
    const worker = new ConsentExpiry(t.services.consents.end, 60_000, t.app.log);
    const { expired } = await worker.tick(new Date(Date.now() + 120_000));
    assert.ok(expired >= 1);
    const got = await t.call('GET', `/api/v1/consents/${c.id}`);
    assert.equal(got.body.data.status, 'expired');
    const lookup = await t.call('GET', `/api/v1/transactions/${bank.body.data.reference_id}`);
    assert.ok(lookup.body.data.erased_at, lookup.text);
    const events = await t.store.db.selectFrom('webhook_events').select('payload').where('type', '=', 'consent.expired').execute();
    assert.ok(events.some((e) => JSON.parse(e.payload).data.consent_id === c.id));
  });

  it('a reference still pending at withdrawal is erased once final, once', async () => {
    const c = await create({ operations: ['upi-payment-status'] });
    const upi = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa: 'pending@sandbox', consent_id: c.id } });
    assert.equal(upi.body.statuscode, 'TUP', upi.text);
    const referenceId = upi.body.data.reference_id as string;
    const w = await t.call('POST', `/api/v1/consents/${c.id}/withdraw`);
    assert.deepEqual(w.body.data.effect.references_pending, [referenceId]);
    const worker = new ConsentExpiry(t.services.consents.end, 60_000, t.app.log);
    const later = () => new Date(Date.now() + 120_000); // past the worker's grace for the route's own effect
    await eventually(async () => {
      await worker.tick(later());
      const row = await t.store.db.selectFrom('consents').select('effected_at').where('id', '=', c.id).executeTakeFirstOrThrow();
      return row.effected_at !== null;
    }, 20_000);
    await worker.tick(later());
    const lookup = await t.call('GET', `/api/v1/transactions/${referenceId}`);
    assert.ok(lookup.body.data.erased_at, lookup.text);
    const erasures = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'audit erase').execute();
    assert.equal(erasures.filter((r) => JSON.stringify(r.request_body).includes(referenceId)).length, 1, 'erased once, not at every tick');
  });

  it('an account may require consent_id on live calls', async () => {
    await accounts.setConsentRequired(t.store.db, 'cli', { accountId: t.accountId, requireLive: true });
    refusedFor(await t.call('POST', PATHS.names, { key: t.liveKey, body: VALID.names() }));
    const c = await create({ operations: ['name-match'] }, t.liveKey);
    const ok = await t.call('POST', PATHS.names, { key: t.liveKey, body: { ...VALID.names(), consent_id: c.id } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await t.call('POST', PATHS.names, { body: VALID.names() })).status, 200, 'sandbox calls need none');
    const audit = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'accounts consent').execute();
    assert.equal(audit.length, 1);
    await accounts.setConsentRequired(t.store.db, 'cli', { accountId: t.accountId, requireLive: false });
  });

  it('a dump of the store holds neither the subject\'s mobile number nor e-mail', async () => {
    await t.call('GET', '/api/v1/consents', { query: { subject_mobile: MOBILE } });
    await t.services.audit.flush();
    const dump = await dumpTables(t.store.db);
    assert.ok(dump.includes('kyc-onboarding'), 'the dump holds the consents');
    assert.ok(!dump.includes(MOBILE), 'no mobile number in clear');
    assert.ok(!dump.toLowerCase().includes(EMAIL), 'no e-mail in clear');
  });
});

describe('consent withdrawal revokes a live DigiLocker grant at the partner', () => {
  let t: TestApp;
  let dl: Awaited<ReturnType<typeof startDigilockerEmulator>>;
  before(async () => {
    dl = await startDigilockerEmulator({});
    const vars = { KIND: 'digilocker', URL: dl.url, CLIENT_ID: dl.clientId, CLIENT_SECRET: dl.clientSecret, TRUST_ANCHORS: dl.anchorsPath };
    const env = Object.fromEntries(Object.entries(vars).map(([k, v]) => [`SANGAM_PARTNER_DL_${k}`, v]));
    t = await startPartnerApp({ ...env, SANGAM_PARTNER_TIMEOUT_MS: '3000' }, { port: await freePort() });
  });
  after(async () => {
    await t.close();
    await dl.close();
  });

  it('the token held after the user allowed is revoked at DigiLocker, and the download is refused', async () => {
    const c = (await t.call('POST', '/api/v1/consents', { key: t.liveKey, body: consentBody() })).body.data as { id: string };
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: { reference_id: ref('init'), consent: true, consent_id: c.id, redirect_url: 'https://client.example/done' } });
    assert.equal(init.body.statuscode, 'TUP', init.text);
    dl.setFaults({ auto_allow: 'ananya' });
    const atDigilocker = await fetch(init.body.data.authorization_url, { redirect: 'manual' });
    const back = await fetch(atDigilocker.headers.get('location')!, { redirect: 'manual' });
    assert.equal(back.status, 302, await back.text());
    dl.setFaults({});
    const calls = async () => (await (await fetch(`${dl.origin}/_sim/calls`)).json()) as Record<string, number>;
    const before = (await calls()).revoke ?? 0;
    const w = await t.call('POST', `/api/v1/consents/${c.id}/withdraw`, { key: t.liveKey });
    assert.equal(w.status, 200, w.text);
    assert.equal(w.body.data.effect.grants_revoked, 1, w.text);
    assert.equal((await calls()).revoke, before + 1, 'DigiLocker was asked to revoke the token');
    const clientId = init.body.data.doclocker__client__id as string;
    const cited = await t.call('POST', PATHS.aadhaar, { key: t.liveKey, body: { reference_id: ref('aad'), consent: true, consent_id: c.id, doclocker__client__id: clientId } });
    refusedFor(cited);
    const uncited = await t.call('POST', PATHS.aadhaar, { key: t.liveKey, body: { reference_id: ref('aad'), consent: true, doclocker__client__id: clientId } });
    assert.equal(uncited.body.statuscode, 'ERR', uncited.text);
  });
});
