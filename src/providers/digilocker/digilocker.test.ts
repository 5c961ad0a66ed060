// The digilocker connector against the DigiLocker emulator over real loopback HTTP, with its sessions in
// a real PartnerSessionStore on the real store (embedded or PostgreSQL). A recording proxy sits between
// the connector and the emulator, so the test sees the exact bytes DigiLocker sent; undici's fetch plays
// the user's browser (authorize → consent → our callback → the client's redirect_url).
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { startApp, type TestApp } from '../../../test/harness.js';
import { startDigilockerEmulator, type DigilockerEmulator } from '../../../partner-sim/digilocker/server.js';
import type { DigilockerFaults } from '../../../partner-sim/digilocker/context.js';
import { answerOf, reportAnswer } from '../answer.js';
import { PartnerError, type Connector, type OperationRequest, type PartnerContext, type PartnerReport } from '../connector.js';
import { PartnerSessionStore } from '../sessions.js';
import { createDigilocker } from './index.js';
import { registerPartnerRoute } from '../../routes/partners/index.js';
import { verifyEaadhaar, parseAnchors } from './xml-verify.js';

const NAME = 'dl';

/** Polls `probe` every 20 ms until it holds; fails after 5 s. */
async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 5000; !(await probe()); ) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const CLIENT_APP = 'https://client.example/kyc/done';

/**
 * A pass-through proxy that keeps the eAadhaar bodies by the access token that fetched them (a request
 * an earlier test timed out may still be answered late), and the token answers.
 */
async function recordingProxy(target: string) {
  const seen = { eaadhaar: new Map<string, Buffer>(), tokens: [] as string[] };
  const server: Server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = { ...req.headers };
    delete headers.host;
    const up = await request(`${target}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await up.body.arrayBuffer());
    if (req.url?.includes('/xml/eaadhaar') && up.statusCode === 200) seen.eaadhaar.set(String(req.headers.authorization).replace(/^Bearer /, ''), body);
    if (req.url?.endsWith('/oauth2/1/token') && up.statusCode === 200) seen.tokens.push((JSON.parse(body.toString()) as { access_token: string }).access_token);
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !['transfer-encoding', 'connection', 'content-length'].includes(k)) out[k] = v;
    res.writeHead(up.statusCode, out).end(body);
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('digilocker connector', () => {
  let t: TestApp;
  let dl: DigilockerEmulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let app: FastifyInstance;
  let base = '';
  let connector: Connector;
  let store: PartnerSessionStore;
  let timeoutMs = 3000;
  const reports: PartnerReport[] = [];
  let seq = 0;

  const ctxFor = (url: string, vars?: Record<string, string>): PartnerContext => ({
    name: NAME,
    url,
    vars: vars ?? { CLIENT_ID: dl.clientId, CLIENT_SECRET: dl.clientSecret, TRUST_ANCHORS: dl.anchorsPath },
    webhookUrl: `${base}/partners/${NAME}/webhooks`,
    // The core knows SANGAM_PUBLIC_URL before it boots; here the port is known only after listen.
    get oauthCallbackUrl() {
      return `${base}/partners/${NAME}/oauth/callback`;
    },
    timeoutFor: () => timeoutMs,
    sessions: store.for(NAME),
  });

  const faults = (f: Partial<DigilockerFaults>) => dl.setFaults(f);
  const calls = async () => (await (await fetch(`${dl.origin}/_sim/calls`)).json()) as Record<string, number>;
  const txn = () => `txn_test_${++seq}_${randomBytes(4).toString('hex')}`;
  const exec = async (r: OperationRequest) => answerOf(await connector.execute(r)); // as the router hands it to the core

  async function initialize(redirectUrl: string | null = CLIENT_APP) {
    const txnId = txn();
    const o = await exec({ operation: 'doclocker-initialize', txnId, redirectUrl: redirectUrl ?? undefined });
    return { txnId, outcome: o, clientId: o.fields.doclocker__client__id as string, url: new URL(o.fields.authorization_url as string) };
  }

  /** The browser: authorize (auto-allowed, denied, or through the consent form), then our callback. */
  async function browse(authUrl: URL, how: { form?: { resident: string; decision: 'allow' | 'deny' } } = {}) {
    let res = await fetch(authUrl, { redirect: 'manual' });
    if (how.form) {
      const html = await res.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
      const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
      res = await fetch(new URL(action, authUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, resident: how.form.resident, decision: how.form.decision }).toString(),
      });
    }
    assert.equal(res.status, 302, 'the emulator sends the browser back');
    const back = new URL(res.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, `${base}/partners/${NAME}/oauth/callback`);
    const ours = await fetch(back, { redirect: 'manual' });
    return { back, status: ours.status, location: ours.headers.get('location'), text: await ours.text() };
  }

  /** An authorized client id for a resident (auto-allowed at the emulator). */
  async function authorized(resident = 'ananya') {
    faults({ auto_allow: resident });
    const init = await initialize();
    const cb = await browse(init.url);
    assert.equal(cb.status, 302, cb.text);
    faults({});
    return init;
  }

  const download = (clientId: string, txnId = txn()) => exec({ operation: 'doclocker-download-aadhaar', txnId, clientId });

  before(async () => {
    t = await startApp();
    store = new PartnerSessionStore(t.store.db, randomBytes(32).toString('base64url'));
    dl = await startDigilockerEmulator();
    proxy = await recordingProxy(dl.origin);
    app = Fastify();
    connector = createDigilocker(ctxFor(`${proxy.origin}/public/`));
    for (const route of connector.routes!({ report: async (r) => void reports.push(reportAnswer(r)), recheck: async () => undefined })) registerPartnerRoute(app, NAME, route);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await connector.close?.();
    await app.close();
    await proxy.close();
    await dl.close();
    await t.close();
  });
  beforeEach(() => {
    faults({});
    timeoutMs = 3000;
  });

  it('refuses to build without its variables, naming the missing one', () => {
    const vars = { CLIENT_ID: 'x', CLIENT_SECRET: 'y', TRUST_ANCHORS: dl.anchorsPath };
    assert.throws(() => createDigilocker(ctxFor(dl.url, { ...vars, CLIENT_ID: '' })), /SANGAM_PARTNER_DL_CLIENT_ID is required/);
    assert.throws(() => createDigilocker(ctxFor(dl.url, { CLIENT_ID: 'x', TRUST_ANCHORS: dl.anchorsPath })), /SANGAM_PARTNER_DL_CLIENT_SECRET is required/);
    assert.throws(() => createDigilocker(ctxFor(dl.url, { CLIENT_ID: 'x', CLIENT_SECRET: 'y' })), /SANGAM_PARTNER_DL_TRUST_ANCHORS is required/);
    assert.throws(() => createDigilocker(ctxFor(dl.url, { ...vars, TRUST_ANCHORS: '/nonexistent/anchors.pem' })), /SANGAM_PARTNER_DL_TRUST_ANCHORS .* readable PEM/);
    assert.throws(() => createDigilocker(ctxFor('not a url', vars)), /SANGAM_PARTNER_DL_URL/);
    assert.deepEqual(createDigilocker(ctxFor(dl.url, vars)).serves, ['doclocker-initialize', 'doclocker-download-aadhaar']);
  });

  it('initialize answers pending with an authorize URL carrying PKCE S256 and an unguessable state', async () => {
    const { outcome, clientId, url } = await initialize();
    assert.equal(outcome.status, 'pending');
    assert.match(clientId, /^doclocker_[0-9A-Za-z]{24}$/);
    assert.ok(Date.parse(outcome.fields.expires_at as string) > Date.now() + 14 * 60_000);
    assert.equal(`${url.origin}${url.pathname}`, `${proxy.origin}/public/oauth2/1/authorize`);
    const q = url.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), dl.clientId);
    assert.equal(q.get('redirect_uri'), `${base}/partners/${NAME}/oauth/callback`);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!url.toString().includes(clientId), 'the state, not the client id, names the session');
    assert.equal(outcome.settle?.final.status, 'failed', 'an undecided session fails when it expires');
  });

  it('happy path: consent form, PKCE exchange, verified download mapped to the seed fields, token revoked, XML kept exactly', async () => {
    const init = await initialize();
    const cb = await browse(init.url, { form: { resident: 'ananya', decision: 'allow' } });
    assert.equal(cb.status, 302);
    const to = new URL(cb.location!);
    assert.equal(`${to.origin}${to.pathname}`, CLIENT_APP);
    assert.equal(to.searchParams.get('doclocker__client__id'), init.clientId);
    assert.equal(to.searchParams.get('status'), 'authorized');
    assert.deepEqual(reports.at(-1), { txnId: init.txnId, partnerRef: null, outcome: { status: 'success', message: 'The user authorized the document-locker request', fields: {} } });

    // At rest the token (and the verifier) exist only encrypted.
    const token = proxy.seen.tokens.at(-1)!;
    const rows = await t.store.db.selectFrom('partner_sessions').select(['partner', 'key', 'value']).execute();
    assert.ok(rows.some((r) => r.key === `client:${init.clientId}`));
    for (const r of rows) assert.ok(!r.value.includes(token) && !r.value.includes('authorized'), `row ${r.key} holds plaintext`);

    const revokesBefore = (await calls()).revoke!;
    const txnId = txn();
    const o = await download(init.clientId, txnId);
    assert.equal(o.status, 'success', o.message);
    const x = o.fields.Aadhaar_Xml_Data as Record<string, unknown>;
    assert.equal(x.Full_Name, 'Ananya Rao');
    assert.equal(x.Care_Of, 'D/O Prakash Rao');
    assert.equal(x.Dob, '14-08-1992');
    assert.equal(x.Gender, 'F');
    assert.equal(x.Masked_Aadhaar, 'XXXXXXXX4821');
    assert.match(x.Full_Address as string, /^12, 17th Cross, .*Bengaluru Urban, Karnataka - 560034, India$/);
    assert.deepEqual(x.Address, { Country: 'India', State: 'Karnataka', Dist: 'Bengaluru Urban', Street: '17th Cross' });
    assert.match(x.Profile_Image as string, /^\/9j\/[A-Za-z0-9+/=]+$/);
    assert.equal(o.fields.Errorcode, 100);
    assert.equal(o.fields.Status, 'success');
    assert.equal(o.fields.Message, 'Aadhaar XML downloaded');

    assert.equal((await calls()).revoke, revokesBefore + 1, 'the token is revoked after the fetch');
    const again = await download(init.clientId);
    assert.equal(again.status, 'failed');
    assert.match(again.message, /already used/);

    const doc = await connector.document!(txnId);
    assert.equal(doc?.contentType, 'application/xml; charset=utf-8');
    assert.ok(Buffer.from(doc!.body, 'utf8').equals(proxy.seen.eaadhaar.get(token)!), 'Xml_Url serves the bytes exactly as signed');
    assert.equal(await connector.document!(txn()), null);
    const stored = await t.store.db.selectFrom('partner_sessions').select('value').where('key', '=', `xml:${txnId}`).executeTakeFirstOrThrow();
    assert.ok(!stored.value.includes('Ananya') && !stored.value.includes('Certificate'), 'the XML is stored encrypted');
  });

  it('a wrong PKCE verifier is refused by DigiLocker: the session fails and the user is told', async () => {
    faults({ auto_allow: 'rohan' });
    const init = await initialize();
    const sessions = store.for(NAME);
    const s = (await sessions.get<Record<string, unknown>>(`client:${init.clientId}`))!;
    await sessions.put(`client:${init.clientId}`, { ...s, verifier: randomBytes(32).toString('base64url') }, 600);
    const cb = await browse(init.url);
    assert.equal(new URL(cb.location!).searchParams.get('status'), 'failed');
    assert.equal(reports.at(-1)?.outcome.status, 'failed');
    assert.match(reports.at(-1)!.outcome.message, /invalid_grant/);
    const o = await download(init.clientId);
    assert.equal(o.status, 'failed');
    assert.match(o.message, /did not complete the authorization \(invalid_grant/);
  });

  it('deny: the user is sent back with status=denied and a download answers consent denied', async () => {
    faults({ deny_consent: true });
    const init = await initialize();
    const cb = await browse(init.url);
    assert.equal(new URL(cb.location!).searchParams.get('status'), 'denied');
    assert.equal(reports.at(-1)?.outcome.status, 'failed');
    const o = await download(init.clientId);
    assert.deepEqual(o, { status: 'failed', message: 'Consent denied: the user refused this document-locker request', fields: { Errorcode: 120, Status: 'Failed', Message: o.message } });
  });

  it('pending, unknown and replayed: consent pending, expired, and a spent state is a 400 page', async () => {
    const init = await initialize();
    assert.match((await download(init.clientId)).message, /^Consent pending: /);
    assert.equal((await download('doclocker_NOSUCHCLIENTIDxxxxxxxxxxx')).message, 'The document-locker request expired before the user authorized it');

    const unknown = await fetch(`${base}/partners/${NAME}/oauth/callback?code=abc&state=forged`);
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /unknown, already used or expired/);

    faults({ auto_allow: 'kiran' });
    const ok = await initialize(null);
    const cb = await browse(ok.url);
    assert.equal(cb.status, 200, 'without a redirect_url the user gets a short page');
    assert.match(cb.text, /Authorized/);
    const replay = await fetch(cb.back, { redirect: 'manual' });
    assert.equal(replay.status, 400, 'a callback is spent on first use');
    const o = await download(ok.clientId);
    assert.equal(o.status, 'success', o.message);
    assert.equal((o.fields.Aadhaar_Xml_Data as { Gender: string }).Gender, 'T');
  });

  for (const [fault, reason] of [
    ['tamper_xml', /\(bad signature\)/],
    ['untrusted_signer', /\(untrusted signer\)/],
    ['bad_hmac', /\(bad hmac\)/],
    ['signature_wrapping', /\(bad signature\)/],
    ['xml_with_doctype', /\(unsafe xml\)/],
  ] as const) {
    it(`${fault}: failed, naming the reason, with no document content and nothing behind Xml_Url`, async () => {
      const init = await authorized();
      const before = await calls();
      faults({ [fault]: true });
      const txnId = txn();
      const o = await download(init.clientId, txnId);
      assert.equal(o.status, 'failed');
      assert.match(o.message, reason);
      assert.deepEqual(Object.keys(o.fields).sort(), ['Errorcode', 'Message', 'Status']);
      assert.doesNotMatch(JSON.stringify(o), /Ananya|Forged|xxxxxxxx|9j/);
      assert.equal(await connector.document!(txnId), null);
      const after = await calls();
      assert.equal(after.revoke, before.revoke! + 1, 'the token is revoked after a failed verification too');
      if (fault === 'xml_with_doctype') assert.equal(after.xxe_dtd, 0, 'the external DTD was never fetched');
    });
  }

  it('a missing hmac header is not a failure (it is optional upstream)', async () => {
    const init = await authorized('rohan');
    faults({ omit_hmac: true });
    const o = await download(init.clientId);
    assert.equal(o.status, 'success', o.message);
    assert.equal((o.fields.Aadhaar_Xml_Data as { Masked_Aadhaar: string }).Masked_Aadhaar, 'XXXXXXXX' + dl.residents.find((r) => r.key === 'rohan')!.aadhaarLast4);
  });

  it('the documented 404s and an expired token are failed answers', async () => {
    const meera = await authorized('meera');
    const a = await download(meera.clientId);
    assert.equal(a.status, 'failed');
    assert.match(a.message, /aadhaar_not_linked/);
    const imran = await authorized('imran');
    assert.match((await download(imran.clientId)).message, /aadhaar_not_available/);
    const expired = await authorized();
    faults({ expired_token: true });
    const c = await download(expired.clientId);
    assert.equal(c.status, 'failed');
    assert.match(c.message, /refused the access token/);
  });

  it('DigiLocker 5xx, timeout or unreachable: PartnerError (no charge), the token kept so a retry succeeds', async () => {
    const init = await authorized();
    const before = await calls();
    for (const status of [500, 503] as const) {
      faults({ error_next: 1, error_status: status });
      await assert.rejects(download(init.clientId), (e) => e instanceof PartnerError && e.kind === 'unavailable' && /HTTP 5\d\d/.test(e.message));
    }
    timeoutMs = 300;
    faults({ timeout_next: 1, timeout_ms: 1500 });
    await assert.rejects(download(init.clientId), (e) => e instanceof PartnerError && e.kind === 'timeout');

    // Nothing listens on this port any more.
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((r) => gone.close(() => r()));
    const offline = createDigilocker(ctxFor(`http://127.0.0.1:${port}/public`));
    await assert.rejects(offline.execute({ operation: 'doclocker-download-aadhaar', txnId: txn(), clientId: init.clientId }), (e) => e instanceof PartnerError);
    await offline.close?.();

    assert.equal((await calls()).revoke, before.revoke, 'no revoke before a definitive answer');
    timeoutMs = 3000;
    faults({});
    const o = await download(init.clientId);
    assert.equal(o.status, 'success', o.message);
  });

  it("the partner's spec: the eAadhaar is fetched at /oauth2/2/xml/eaadhaar, and its KycRes document verifies and maps like the Certificate", async () => {
    const init = await authorized('rohan');
    faults({ kycres_shape: true });
    const txnId = txn();
    const o = await download(init.clientId, txnId);
    assert.equal(o.status, 'success', o.message);
    const x = o.fields.Aadhaar_Xml_Data as Record<string, unknown>;
    assert.deepEqual([x.Full_Name, x.Masked_Aadhaar, x.Dob, x.Gender], ['Rohan Verma', 'XXXXXXXX7305', '02-01-1985', 'M']);
    assert.match(x.Full_Address as string, /Malviya Nagar.*South Delhi, Delhi - 110017, India$/);
    assert.match(x.Profile_Image as string, /^\/9j\//);
    const doc = await connector.document!(txnId);
    assert.match(doc!.body, /^<\?xml[^>]*>\n?<KycRes /);
    const fetched = dl.received.filter((q) => q.path.endsWith('/xml/eaadhaar')).map((q) => q.path);
    assert.ok(fetched.length > 0 && fetched.every((p) => p === '/public/oauth2/2/xml/eaadhaar'), `the spec's path, always: ${[...new Set(fetched)].join(', ')}`);

    // A DigiLocker that serves this client only CONTRACT §9's /3/ route: the spec's /2/ is a gateway 404, then /3/ answers.
    const onlyThree = await authorized('rohan');
    faults({ eaadhaar_served: 3 });
    const seen = dl.received.length;
    const viaThree = await download(onlyThree.clientId);
    assert.equal(viaThree.status, 'success', viaThree.message);
    assert.deepEqual(dl.received.slice(seen).filter((q) => q.path.endsWith('/xml/eaadhaar')).map((q) => q.path), ['/public/oauth2/2/xml/eaadhaar', '/public/oauth2/3/xml/eaadhaar']);

    // The same refusals hold for the spec's shape: nothing of an unverified document comes back.
    for (const [fault, reason] of [['tamper_xml', /\(bad signature\)/], ['untrusted_signer', /\(untrusted signer\)/]] as const) {
      const again = await authorized('rohan');
      faults({ kycres_shape: true, [fault]: true });
      const bad = await download(again.clientId);
      assert.equal(bad.status, 'failed');
      assert.match(bad.message, reason);
      assert.deepEqual(Object.keys(bad.fields).sort(), ['Errorcode', 'Message', 'Status']);
      assert.doesNotMatch(JSON.stringify(bad), /Rohan|Verma|7305|9j/);
    }
  });

  it('revoke: JSON with Basic as the spec says; a failing revoke is kept, retried, warned about, flagged after 3 attempts, and finished by a later process', async () => {
    const warned: Array<{ kind: string; fields?: Record<string, unknown> }> = [];
    const flagged: Array<{ txnId: string; why: string }> = [];
    const withHooks = (c: Connector) => {
      c.routes!({ report: async () => undefined, recheck: async () => undefined, warn: (kind, _m, fields) => void warned.push({ kind, fields }), flag: async (txnId, why) => void flagged.push({ txnId, why }) });
      return c;
    };
    const vars = { CLIENT_ID: dl.clientId, CLIENT_SECRET: dl.clientSecret, TRUST_ANCHORS: dl.anchorsPath, REVOKE_RETRY_S: '0.1' };
    const first = withHooks(createDigilocker(ctxFor(`${proxy.origin}/public/`, vars)));
    const init = await authorized();
    faults({ revoke_error_next: 1000 });
    const txnId = txn();
    const o = await first.execute({ operation: 'doclocker-download-aadhaar', txnId, clientId: init.clientId });
    assert.equal(o.status, 'success', 'a failed revoke does not change the download');
    const token = proxy.seen.tokens.at(-1)!;
    const alive = async () => (await fetch(`${dl.url}/oauth2/1/user`, { headers: { authorization: `Bearer ${token}` } })).status === 200;
    assert.equal(await alive(), true, 'the token is still alive at DigiLocker');
    assert.equal(warned[0]?.kind, 'token_revoke_failed');
    assert.equal(warned[0]?.fields?.txn_id, txnId);
    await until(() => flagged.length > 0);
    assert.equal(flagged[0]!.txnId, txnId);
    assert.match(flagged[0]!.why, /has not confirmed revoking .* after 3 attempts \(last: HTTP 500\); retrying until /);
    assert.equal(flagged.length, 1, 'flagged once');
    // Kept durably, and only encrypted.
    const rows = await t.store.db.selectFrom('partner_sessions').select(['key', 'value']).where('partner', '=', NAME).where('key', 'like', 'revoke%').execute();
    assert.equal(rows.filter((r) => r.key.startsWith('revoke:')).length, 1, 'one entry, found by its prefix');
    for (const r of rows) assert.ok(!r.value.includes(token));

    // The process dies (its retrier stops); the next one finishes the job once DigiLocker answers.
    await first.close!();
    faults({});
    const second = withHooks(createDigilocker(ctxFor(`${proxy.origin}/public/`, vars)));
    await until(async () => !(await alive()));
    await until(async () => (await store.for(NAME).keys('revoke:')).length === 0);
    assert.ok(warned.some((w) => w.kind === 'token_revoked_late'));
    await second.close!();
    const revokes = dl.received.filter((q) => q.path === '/public/oauth2/1/revoke');
    assert.ok(revokes.length >= 4);
    for (const q of revokes) assert.deepEqual(q.body, { token: q.body && (q.body as { token: string }).token, token_type_hint: 'access_token' }, 'a JSON body {token, token_type_hint}');
  });

  it('revoke: failures two processes record at the same instant are all kept and all retried (no index to lose one)', async () => {
    const vars = { CLIENT_ID: dl.clientId, CLIENT_SECRET: dl.clientSecret, TRUST_ANCHORS: dl.anchorsPath, REVOKE_RETRY_S: '0.1' };
    const started = (c: Connector) => {
      c.routes!({ report: async () => undefined, recheck: async () => undefined });
      return c;
    };
    const [a, b] = [started(createDigilocker(ctxFor(`${proxy.origin}/public/`, vars))), started(createDigilocker(ctxFor(`${proxy.origin}/public/`, vars)))];
    const grants = [await authorized(), await authorized()];
    faults({ revoke_error_next: 1000 });
    const outcomes = await Promise.all([a, b].map((c, i) => c.execute({ operation: 'doclocker-download-aadhaar', txnId: txn(), clientId: grants[i]!.clientId })));
    assert.deepEqual(outcomes.map((o) => o.status), ['success', 'success']);
    const tokens = proxy.seen.tokens.slice(-2);
    assert.equal((await store.for(NAME).keys('revoke:')).length, 2, 'both failures kept');
    faults({});
    await until(async () => (await store.for(NAME).keys('revoke:')).length === 0);
    for (const token of tokens) assert.equal((await fetch(`${dl.url}/oauth2/1/user`, { headers: { authorization: `Bearer ${token}` } })).status, 401, 'revoked at DigiLocker');
    await a.close!();
    await b.close!();
  });

  it('verifyEaadhaar on edited copies of a genuine document', async () => {
    const init = await authorized();
    assert.equal((await download(init.clientId)).status, 'success');
    const xml = proxy.seen.eaadhaar.get(proxy.seen.tokens.at(-1)!)!;
    const anchors = parseAnchors(dl.anchorsPem);
    assert.equal(verifyEaadhaar(xml, undefined, { clientSecret: dl.clientSecret, anchors }).ok, true);
    const other = parseAnchors(dl.untrustedAnchorPem);
    assert.deepEqual(verifyEaadhaar(xml, undefined, { clientSecret: dl.clientSecret, anchors: other }), { ok: false, reason: 'untrusted signer', detail: 'the signer does not chain to a trusted anchor' });
    const future = new Date(Date.now() + 10 * 365 * 86_400_000);
    const late = verifyEaadhaar(xml, undefined, { clientSecret: dl.clientSecret, anchors, now: future });
    assert.equal(late.ok, true, 'validity is judged at the signing time, not now');
    assert.equal(verifyEaadhaar(Buffer.concat([xml, Buffer.from(' ')]), 'AAAA', { clientSecret: dl.clientSecret, anchors }).ok, false);
    const withComment = Buffer.from(xml.toString('utf8').replace('<CertificateData>', '<!-- x --><CertificateData>'));
    assert.equal(verifyEaadhaar(withComment, undefined, { clientSecret: dl.clientSecret, anchors }).ok, true, 'comments are outside what is signed');
    const renamed = Buffer.from(xml.toString('utf8').replace('Ananya Rao', 'Ananya Raw'));
    assert.deepEqual(verifyEaadhaar(renamed, undefined, { clientSecret: dl.clientSecret, anchors }), { ok: false, reason: 'bad signature', detail: 'the digest of the document does not match' });
    const text = xml.toString('utf8');
    const sig = text.slice(text.indexOf('<Signature'), text.indexOf('</Signature>') + '</Signature>'.length);
    const twice = Buffer.from(text.replace('<CertificateData>', `<Extra>${sig}</Extra><CertificateData>`));
    assert.deepEqual(verifyEaadhaar(twice, undefined, { clientSecret: dl.clientSecret, anchors }), { ok: false, reason: 'bad signature', detail: 'expected exactly one Signature, found 2' });
    const entity = Buffer.from(text.replace('?>', '?><!ENTITY x "y">'));
    assert.equal((verifyEaadhaar(entity, undefined, { clientSecret: dl.clientSecret, anchors }) as { reason: string }).reason, 'unsafe xml');
    const sha1 = Buffer.from(text.replace('http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2000/09/xmldsig#sha1'));
    assert.deepEqual(verifyEaadhaar(sha1, undefined, { clientSecret: dl.clientSecret, anchors }), { ok: false, reason: 'bad signature', detail: 'unexpected digest algorithm' });
  });
});
