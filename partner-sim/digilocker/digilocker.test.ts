// The DigiLocker emulator over real loopback HTTP: the browser-style authorize → consent form → code →
// token (PKCE) → eAadhaar flow, the XML signature checked with xml-crypto and against the emitted trust
// anchor, the hmac header, the documented errors, and every fault. No database is involved.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes, verify as rsaVerify, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { refusedCli, startCli } from '../common/testing.js';
import { startDigilockerEmulator, type DigilockerEmulator } from './server.js';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'https://sangam.example/dl/callback';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const form = (o: Record<string, string>) => ({ body: new URLSearchParams(o).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

interface Verdict {
  signatureOk: boolean;
  chainOk: boolean;
  referenceUri: string | null;
  firstName: string | null;
}

/** What a careful connector would do (§1.9): XML-DSig with the KeyInfo leaf, then a chain to the anchor. */
function verifyXml(xml: string, anchorPem: string): Verdict {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement!;
  const sig = Array.from(root.childNodes).find((n): n is Element => (n as Element).localName === 'Signature' && (n as Element).namespaceURI === DSIG);
  assert.ok(sig, 'a Signature child of the root');
  const certs = Array.from(sig.getElementsByTagNameNS(DSIG, 'X509Certificate')).map((e) => new X509Certificate(Buffer.from(e.textContent ?? '', 'base64')));
  const leaf = certs[0]!;
  const sx = new SignedXml({ publicCert: leaf.toString() });
  sx.loadSignature(sig as unknown as Node);
  let signatureOk: boolean;
  try {
    signatureOk = sx.checkSignature(xml);
  } catch {
    signatureOk = false;
  }
  const anchor = new X509Certificate(anchorPem);
  let chainOk = false;
  let cur = leaf;
  for (let hops = 0; hops < 5 && !chainOk; hops++) {
    if (cur.checkIssued(anchor) && cur.verify(anchor.publicKey)) chainOk = true;
    const next = certs.find((c) => c !== cur && cur.checkIssued(c) && cur.verify(c.publicKey));
    if (!next) break;
    cur = next;
  }
  return {
    signatureOk,
    chainOk,
    referenceUri: sig.getElementsByTagNameNS(DSIG, 'Reference')[0]?.getAttribute('URI') ?? null,
    firstName: doc.getElementsByTagName('Poi')[0]?.getAttribute('name') ?? null,
  };
}

describe('DigiLocker emulator', () => {
  let dl: DigilockerEmulator;
  let anchor: string;
  const api = (path: string) => `${dl.url}${path}`;
  const faults = (f: Record<string, unknown>) => fetch(`${dl.origin}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(f) });

  before(async () => {
    dl = await startDigilockerEmulator({ clientId: 'TESTCLIENT', clientSecret: 'test-secret' });
    anchor = readFileSync(dl.anchorsPath, 'utf8');
  });
  after(() => dl.close());

  function authorizeUrl(o: { challenge: string; state?: string; extra?: Record<string, string> }) {
    const q = new URLSearchParams({ response_type: 'code', client_id: 'TESTCLIENT', redirect_uri: REDIRECT, state: o.state ?? 'st-1', code_challenge: o.challenge, code_challenge_method: 'S256', ...o.extra });
    return api(`/oauth2/1/authorize?${q}`);
  }

  /** Opens the consent page and submits it like a browser; returns the redirect's URL. */
  async function consent(challenge: string, decision: 'allow' | 'deny', resident = 'ananya', state = 'st-1'): Promise<URL> {
    const page = await fetch(authorizeUrl({ challenge, state }));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const html = await page.text();
    assert.match(html, /value="allow">Allow</);
    assert.match(html, /value="deny">Deny</);
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(action && requestId);
    const res = await fetch(new URL(action, dl.origin), { method: 'POST', redirect: 'manual', ...form({ request_id: requestId, resident, decision }) });
    assert.equal(res.status, 302);
    return new URL(res.headers.get('location')!);
  }

  async function tokenCall(fields: Record<string, string>, headers: Record<string, string> = {}) {
    const f = form(fields);
    const res = await fetch(api('/oauth2/1/token'), { method: 'POST', body: f.body, headers: { ...f.headers, ...headers } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function login(resident = 'ananya') {
    const { verifier, challenge } = pkce();
    const back = await consent(challenge, 'allow', resident);
    const code = back.searchParams.get('code')!;
    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'TESTCLIENT', client_secret: 'test-secret', code_verifier: verifier });
    assert.equal(t.status, 200, JSON.stringify(t.body));
    return t.body;
  }

  async function eaadhaar(token: string, version = 3) {
    const res = await fetch(api(`/oauth2/${version}/xml/eaadhaar`), { headers: { authorization: `Bearer ${token}` } });
    const raw = Buffer.from(await res.arrayBuffer());
    return { status: res.status, raw, text: raw.toString('utf8'), hmac: res.headers.get('hmac'), type: res.headers.get('content-type') };
  }

  const hmacOk = (raw: Buffer, header: string | null) => header === createHmac('sha256', Buffer.from('test-secret', 'utf8')).update(raw).digest('base64');

  it('runs authorize → Allow → code → token (PKCE) → eAadhaar XML that verifies against the emitted anchor', async () => {
    const { verifier, challenge } = pkce();
    const back = await consent(challenge, 'allow', 'ananya', 'state-xyz');
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'state-xyz');
    const code = back.searchParams.get('code')!;
    assert.match(code, /^[0-9a-f]{40}$/);

    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'TESTCLIENT', client_secret: 'test-secret', code_verifier: verifier });
    assert.equal(t.status, 200);
    assert.equal(t.body.token_type, 'Bearer');
    assert.equal(t.body.expires_in, 3600);
    assert.equal(t.body.digilockerid, '5a1c0e2b-7d3f-4c6a-9b1e-0f2d3c4b5a61');
    assert.equal(t.body.name, 'Ananya Rao');
    assert.equal(t.body.dob, '14081992');
    assert.equal(t.body.gender, 'F');
    assert.equal(t.body.eaadhaar, 'Y');
    assert.equal(typeof t.body.consent_valid_till, 'number');
    for (const k of ['access_token', 'refresh_token', 'reference_key', 'scope', 'mobile']) assert.equal(typeof t.body[k], 'string', k);

    const user = await fetch(api('/oauth2/1/user'), { headers: { authorization: `Bearer ${t.body.access_token}` } });
    assert.deepEqual(await user.json(), { digilockerid: '5a1c0e2b-7d3f-4c6a-9b1e-0f2d3c4b5a61', name: 'Ananya Rao', dob: '14081992', gender: 'F', eaadhaar: 'Y' });

    const x = await eaadhaar(String(t.body.access_token));
    assert.equal(x.status, 200);
    assert.equal(x.type, 'application/xml');
    assert.ok(hmacOk(x.raw, x.hmac), 'hmac = base64(HMAC-SHA256(client_secret, raw body))');
    assert.match(x.text, /^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>\n<Certificate><CertificateData><KycRes code="[0-9a-f]{32}" ret="Y" ts="[^"]+\+05:30" ttl="[^"]+" txn="UKC:[0-9a-f]+"><UidData tkn="[^"]+" uid="xxxxxxxx4821"><Poi dob="14-08-1992" gender="F" name="Ananya Rao"\/><Poa co="D\/O Prakash Rao" country="India" /);
    assert.match(x.text, /<LData [^>]*lang="07"/);
    assert.match(x.text, /<Pht>\/9j\/4AAQSkZJRg[A-Za-z0-9+/=]+<\/Pht><\/UidData><\/KycRes><\/CertificateData><Signature xmlns="http:\/\/www.w3.org\/2000\/09\/xmldsig#">\n  <SignedInfo>/);
    assert.match(x.text, /<CanonicalizationMethod Algorithm="http:\/\/www.w3.org\/2001\/10\/xml-exc-c14n#"\/>\n    <SignatureMethod Algorithm="http:\/\/www.w3.org\/2000\/09\/xmldsig#rsa-sha1"\/>\n  <Reference URI=""><Transforms><Transform Algorithm="http:\/\/www.w3.org\/2000\/09\/xmldsig#enveloped-signature"\/><\/Transforms><DigestMethod Algorithm="http:\/\/www.w3.org\/2001\/04\/xmlenc#sha256"\/>/);
    assert.match(x.text, /<\/SignatureValue>\n<KeyInfo><X509Data><X509SubjectName>CN=DS EMULATED E-GOVERNANCE DIVISION 1,ST=DELHI,postalCode=110003,/);
    assert.ok(x.text.endsWith('</X509Data></KeyInfo></Signature></Certificate>'));

    const v = verifyXml(x.text, anchor);
    assert.deepEqual(v, { signatureOk: true, chainOk: true, referenceUri: '', firstName: 'Ananya Rao' });
    assert.equal(verifyXml(x.text, dl.untrustedAnchorPem).chainOk, false);

    // The same bytes by hand, without xml-crypto: inclusive C14N of the document minus <Signature>, SHA-256;
    // then exclusive C14N of SignedInfo, RSA-SHA1 with the leaf's key.
    const expand = (s: string) => s.replace(/<([A-Za-z]+)([^<>]*?)\/>/g, '<$1$2></$1>');
    const sigAt = x.text.indexOf('<Signature');
    const unsigned = expand(x.text.slice(0, sigAt) + '</Certificate>').replace(/^<\?xml[^>]*\?>\n/, '');
    assert.equal(createHash('sha256').update(unsigned).digest('base64'), /<DigestValue>([^<]+)/.exec(x.text)?.[1]);
    const signedInfo = expand(/<SignedInfo>[\s\S]*<\/SignedInfo>/.exec(x.text)![0]).replace('<SignedInfo>', `<SignedInfo xmlns="${DSIG}">`);
    const leaf = new X509Certificate(Buffer.from(/<X509Certificate>([^<]+)/.exec(x.text)![1]!, 'base64'));
    assert.ok(rsaVerify('sha1', Buffer.from(signedInfo), leaf.publicKey, Buffer.from(/<SignatureValue>([^<]+)/.exec(x.text)![1]!, 'base64')));
    assert.ok(leaf.keyUsage?.includes('1.3.6.1.4.1.311.10.3.12'), 'Document Signing EKU');

    // /2/ is the spec's path for the same document.
    assert.equal((await eaadhaar(String(t.body.access_token), 2)).status, 200);
    const calls = (await (await fetch(`${dl.origin}/_sim/calls`)).json()) as Record<string, number>;
    assert.ok(calls.token! >= 1 && calls.eaadhaar! >= 2 && calls.user! >= 1);
  });

  it('accepts HTTP Basic client authentication and refuses a bad client', async () => {
    const { verifier, challenge } = pkce();
    const code = (await consent(challenge, 'allow')).searchParams.get('code')!;
    const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    const wrong = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic('TESTCLIENT', 'nope'));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const unknown = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: 'OTHER', client_secret: 'x' });
    assert.deepEqual(unknown, { status: 401, body: { error: 'invalid_client_id', error_description: 'The client_id parameter is invalid' } });
    const ok = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic('TESTCLIENT', 'test-secret'));
    assert.equal(ok.status, 200);
  });

  it('refuses a wrong code_verifier, and the code is then spent', async () => {
    const { verifier, challenge } = pkce();
    const code = (await consent(challenge, 'allow')).searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'TESTCLIENT', client_secret: 'test-secret' };
    const bad = await tokenCall({ ...base, code_verifier: pkce().verifier });
    assert.deepEqual(bad, { status: 400, body: { error: 'invalid_grant', error_description: 'The code_verifier does not match the code_challenge' } });
    const again = await tokenCall({ ...base, code_verifier: verifier });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
  });

  it('refuses a reused code and revokes what the first exchange issued', async () => {
    const { verifier, challenge } = pkce();
    const code = (await consent(challenge, 'allow')).searchParams.get('code')!;
    const fields = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'TESTCLIENT', client_secret: 'test-secret', code_verifier: verifier };
    const first = await tokenCall(fields);
    assert.equal(first.status, 200);
    const second = await tokenCall(fields);
    assert.deepEqual(second, { status: 400, body: { error: 'invalid_grant', error_description: 'The authorization code has already been used' } });
    const x = await eaadhaar(String(first.body.access_token));
    assert.equal(x.status, 401);
    assert.deepEqual(JSON.parse(x.text), { error: 'invalid token', error_description: 'The access token is invalid' });
  });

  it('refuses a redirect_uri that differs from the authorize request', async () => {
    const { verifier, challenge } = pkce();
    const code = (await consent(challenge, 'allow')).searchParams.get('code')!;
    const r = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: 'https://evil.example/cb', client_id: 'TESTCLIENT', client_secret: 'test-secret', code_verifier: verifier });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_grant');
  });

  it('answers malformed bodies and unknown paths in the API error shape', async () => {
    const bad = await fetch(api('/oauth2/1/token'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.equal(bad.status, 400);
    const b = (await bad.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(b).sort(), ['error', 'error_description']);
    assert.equal(b.error, 'invalid_request');
    const missing = await fetch(api('/oauth2/9/nothing'));
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as Record<string, unknown>).error, 'not_found');
  });

  it('Deny redirects with error=access_denied and the state', async () => {
    const back = await consent(pkce().challenge, 'deny', 'ananya', 'st-deny');
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'st-deny');
    assert.equal(back.searchParams.get('code'), null);
  });

  it('validates the authorize request as documented, on an error page that redirects nowhere', async () => {
    const { challenge } = pkce();
    const cases: Array<[Record<string, string>, string]> = [
      [{ code_challenge: '' }, 'The code_challenge and code_challenge_method parameter is required'],
      [{ code_challenge_method: 'plain' }, 'The only supported values for this parameter is S256'],
      [{ client_id: 'NOPE' }, 'The client_id parameter is invalid'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ state: '' }, 'The state parameter is required'],
      [{ redirect_uri: 'not a url' }, 'invalid_redirect_uri'],
    ];
    for (const [extra, text] of cases) {
      const res = await fetch(authorizeUrl({ challenge, extra }), { redirect: 'manual' });
      assert.equal(res.status, 400, JSON.stringify(extra));
      assert.ok((await res.text()).includes(text), text);
    }
  });

  it("accepts the spec's capitalised Code_challenge / Code_challenge_method as well as RFC 7636's lower case", async () => {
    const { verifier, challenge } = pkce();
    const q = new URLSearchParams({ response_type: 'code', client_id: 'TESTCLIENT', redirect_uri: REDIRECT, state: 'st-cap', Code_challenge: challenge, Code_challenge_method: 'S256' });
    await faults({ auto_allow: 'ananya' });
    const res = await fetch(`${api('/oauth2/1/authorize')}?${q}`, { redirect: 'manual' });
    await faults({});
    assert.equal(res.status, 302, await res.text());
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: 'TESTCLIENT', client_secret: 'test-secret' });
    assert.equal(t.status, 200, 'the capitalised challenge is the one PKCE checks');
  });

  it("kycres_shape: the spec's document, root KycRes with UIDAI's enveloped signature inside, verifies against the anchor", async () => {
    const t = await login('ananya');
    await faults({ kycres_shape: true });
    const x = await eaadhaar(String(t.access_token), 2);
    await faults({});
    assert.equal(x.status, 200);
    const doc = new DOMParser().parseFromString(x.text, 'text/xml');
    const root = doc.documentElement!;
    assert.equal(root.localName, 'KycRes');
    const kids = Array.from(root.childNodes).filter((n): n is Element => n.nodeType === 1).map((e) => e.localName);
    assert.deepEqual(kids, ['Rar', 'UidData', 'Signature']);
    const uid = doc.getElementsByTagName('UidData')[0]!;
    assert.deepEqual(Array.from(uid.childNodes).filter((n): n is Element => n.nodeType === 1).map((e) => e.localName), ['Poi', 'Poa', 'LData', 'Pht', 'Prn']);
    const v = verifyXml(x.text, anchor);
    assert.deepEqual([v.signatureOk, v.chainOk, v.referenceUri, v.firstName], [true, true, '', 'Ananya Rao']);
    assert.ok(hmacOk(x.raw, x.hmac));
  });

  it('answers the documented 404s for residents without eAadhaar', async () => {
    const meera = await login('meera');
    assert.equal(meera.eaadhaar, 'N');
    const a = await eaadhaar(String(meera.access_token));
    assert.equal(a.status, 404);
    assert.deepEqual(JSON.parse(a.text), { error: 'aadhaar_not_linked', error_description: 'Aadhaar is not linked to the account' });
    const imran = await login('imran');
    const b = await eaadhaar(String(imran.access_token));
    assert.equal(b.status, 404);
    assert.equal(JSON.parse(b.text).error, 'aadhaar_not_available');
  });

  it('refreshes, then revoke ends every token of the grant', async () => {
    const t = await login('rohan');
    const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: String(t.refresh_token), client_id: 'TESTCLIENT', client_secret: 'test-secret' });
    assert.equal(refreshed.status, 200);
    assert.notEqual(refreshed.body.access_token, t.access_token);
    const basic = `Basic ${Buffer.from('TESTCLIENT:test-secret').toString('base64')}`;
    // The spec's media type is JSON only: the RFC 7009 form is refused (415) and revokes nothing.
    const asForm = await fetch(api('/oauth2/1/revoke'), {
      method: 'POST',
      ...form({ token: String(t.access_token), token_type_hint: 'access_token' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
    });
    assert.equal(asForm.status, 415);
    assert.equal((await fetch(api('/oauth2/1/user'), { headers: { authorization: `Bearer ${refreshed.body.access_token}` } })).status, 200, 'a refused revoke revokes nothing');
    const rv = await fetch(api('/oauth2/1/revoke'), {
      method: 'POST',
      body: JSON.stringify({ token: String(t.access_token), token_type_hint: 'access_token' }),
      headers: { 'content-type': 'application/json', authorization: basic },
    });
    assert.equal(rv.status, 200);
    const u = await fetch(api('/oauth2/1/user'), { headers: { authorization: `Bearer ${refreshed.body.access_token}` } });
    assert.equal(u.status, 401);
    assert.deepEqual(await u.json(), { error: 'invalid_token', error_description: 'The access token is invalid' });
    const again = await tokenCall({ grant_type: 'refresh_token', refresh_token: String(t.refresh_token), client_id: 'TESTCLIENT', client_secret: 'test-secret' });
    assert.equal(again.status, 400);
    const unknown = await fetch(api('/oauth2/1/revoke'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'nope', client_id: 'TESTCLIENT', client_secret: 'test-secret' }) });
    assert.deepEqual([unknown.status, await unknown.json()], [400, { error: 'invalid_token', error_description: 'The token is invalid' }]);
  });

  describe('faults', () => {
    let token = '';
    before(async () => (token = String((await login()).access_token)));
    after(() => faults({}));

    it('tamper_xml: the hmac still matches but the signature no longer verifies', async () => {
      await faults({ tamper_xml: true });
      const x = await eaadhaar(token);
      assert.ok(hmacOk(x.raw, x.hmac));
      const v = verifyXml(x.text, anchor);
      assert.equal(v.signatureOk, false);
      assert.equal(v.chainOk, true);
      assert.match(v.firstName ?? '', /^[XY]nanya Rao$/);
    });

    it('untrusted_signer: a valid signature by a leaf that chains only to the other CA', async () => {
      await faults({ untrusted_signer: true });
      const x = await eaadhaar(token);
      const v = verifyXml(x.text, anchor);
      assert.equal(v.signatureOk, true);
      assert.equal(v.chainOk, false);
      assert.equal(verifyXml(x.text, dl.untrustedAnchorPem).chainOk, true);
      assert.match(x.text, /<X509SubjectName>CN=DS EMULATED E-GOVERNANCE DIVISION 1,/); // same name as the real signer
    });

    it('bad_hmac and omit_hmac: the XML is genuine, the header is wrong or absent', async () => {
      await faults({ bad_hmac: true });
      const x = await eaadhaar(token);
      assert.ok(x.hmac && !hmacOk(x.raw, x.hmac));
      assert.equal(verifyXml(x.text, anchor).signatureOk, true);
      await faults({ omit_hmac: true });
      assert.equal((await eaadhaar(token)).hmac, null);
    });

    it('signature_wrapping: a trusted signature over a hidden copy, with forged data first', async () => {
      await faults({ signature_wrapping: true });
      const x = await eaadhaar(token);
      assert.ok(hmacOk(x.raw, x.hmac));
      const v = verifyXml(x.text, anchor);
      assert.equal(v.signatureOk, true, 'a library that follows the Reference accepts it');
      assert.equal(v.chainOk, true);
      assert.equal(v.referenceUri, '#signed-data');
      assert.equal(v.firstName, 'Forged Identity');
      assert.match(x.text, /<Wrapper><CertificateData Id="signed-data">.*name="Ananya Rao"/);
    });

    it('xml_with_doctype: an XXE DOCTYPE before a document whose signature is otherwise valid', async () => {
      await faults({ xml_with_doctype: true });
      const x = await eaadhaar(token);
      assert.ok(hmacOk(x.raw, x.hmac));
      assert.match(x.text, /<!DOCTYPE Certificate \[/);
      assert.match(x.text, /<!ENTITY xxe SYSTEM "file:\/\/\/etc\/passwd">/);
      assert.ok(x.text.includes(`<!ENTITY % remote SYSTEM "${dl.origin}/_sim/xxe.dtd">`));
      const stripped = x.text.replace(/<!DOCTYPE[\s\S]*?\]>\n/, '');
      assert.equal(verifyXml(stripped, anchor).signatureOk, true);
      const calls = (await (await fetch(`${dl.origin}/_sim/calls`)).json()) as Record<string, number>;
      assert.equal(calls.xxe_dtd, 0);
    });

    it('error_next and timeout_next: the documented 5xx bodies, then a stall, then normal service', async () => {
      await faults({ error_next: 1 });
      const e = await eaadhaar(token);
      assert.deepEqual([e.status, JSON.parse(e.text)], [500, { error: 'repository_service_unresponsive', error_description: 'Internal server error' }]);
      await faults({ error_next: 1, error_status: 503 });
      const g = await eaadhaar(token);
      assert.deepEqual([g.status, JSON.parse(g.text).error], [503, 'repository_service_inactive']);
      await faults({ error_next: 1 });
      const u = await fetch(api('/oauth2/1/user'), { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual([u.status, await u.json()], [500, { error: 'unexpected_error', error_description: 'Internal server error' }]);
      assert.equal((await eaadhaar(token)).status, 200);
      await faults({ timeout_next: 1, timeout_ms: 250 });
      const t0 = Date.now();
      assert.equal((await eaadhaar(token)).status, 200);
      assert.ok(Date.now() - t0 >= 240);
    });

    it('deny_consent and auto_allow answer the authorize redirect at once', async () => {
      await faults({ deny_consent: true });
      const d = await fetch(authorizeUrl({ challenge: pkce().challenge, state: 's9' }), { redirect: 'manual' });
      assert.equal(d.status, 302);
      const dl1 = new URL(d.headers.get('location')!);
      assert.deepEqual([dl1.searchParams.get('error'), dl1.searchParams.get('state')], ['access_denied', 's9']);
      await faults({ auto_allow: 'kiran' });
      const { verifier, challenge } = pkce();
      const a = await fetch(authorizeUrl({ challenge }), { redirect: 'manual' });
      const code = new URL(a.headers.get('location')!).searchParams.get('code')!;
      const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'TESTCLIENT', client_secret: 'test-secret', code_verifier: verifier });
      assert.deepEqual([t.body.name, t.body.gender], ['Kiran Das', 'T']);
    });

    it('expired_token: resources answer 401 until the fault is cleared', async () => {
      await faults({ expired_token: true });
      assert.equal((await eaadhaar(token)).status, 401);
      await faults({});
      assert.equal((await eaadhaar(token)).status, 200);
    });

    it('refuses an unknown fault name', async () => {
      const r = await faults({ tamper: true });
      assert.equal(r.status, 400);
      assert.match(((await r.json()) as { error: string }).error, /unknown fault tamper/);
      assert.equal((await faults({ auto_allow: 'nobody' })).status, 400);
    });
  });
});

describe('DigiLocker emulator: --pki-dir, code expiry, CLI', () => {
  let dir = '';
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'dl-pki-test-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps its PKI across restarts, and an expired code is refused', async () => {
    const a = await startDigilockerEmulator({ pkiDir: dir, codeTtlMs: 30, redirectUris: [REDIRECT] });
    const pem = a.anchorsPem;
    await a.close();
    const b = await startDigilockerEmulator({ pkiDir: dir, codeTtlMs: 30, redirectUris: [REDIRECT] });
    try {
      assert.equal(b.anchorsPem, pem);
      assert.equal(b.anchorsPath, join(dir, 'trust-anchors.pem'));
      const { verifier, challenge } = pkce();
      const q = (redirect: string) => new URLSearchParams({ response_type: 'code', client_id: b.clientId, redirect_uri: redirect, state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
      const unregistered = await fetch(`${b.url}/oauth2/1/authorize?${q('https://other.example/cb')}`);
      assert.equal(unregistered.status, 400);
      b.setFaults({ auto_allow: 'ananya' });
      const res = await fetch(`${b.url}/oauth2/1/authorize?${q(REDIRECT)}`, { redirect: 'manual' });
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
      await new Promise((r) => setTimeout(r, 60));
      const t = await fetch(`${b.url}/oauth2/1/token`, {
        method: 'POST',
        ...form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: b.clientId, client_secret: b.clientSecret, code_verifier: verifier }),
      });
      assert.deepEqual([t.status, await t.json()], [400, { error: 'invalid_grant', error_description: 'The authorization code has expired' }]);
    } finally {
      await b.close();
    }
  });

  it('`sangam partner-sim --kind digilocker` prints what to configure', async () => {
    const bin = join(process.cwd(), 'bin/sangam.js');
    assert.ok(existsSync(bin), 'run from the repository root');
    const { child, printed } = await startCli(['--kind', 'digilocker', '--port', '0', '--pki-dir', dir, '--client-id', 'CLIID', '--client-secret', 'shh']);
    try {
      assert.equal(printed.client_id, 'CLIID');
      assert.equal(printed.client_secret, 'shh');
      assert.equal(printed.trust_anchors, join(dir, 'trust-anchors.pem'));
      assert.match(printed.url!, /^http:\/\/127\.0\.0\.1:\d+\/public$/);
      const page = await fetch(`${printed.url}/oauth2/1/authorize?client_id=CLIID`);
      assert.equal(page.status, 400); // reachable, and validating
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    const bad = await refusedCli(['--kind', 'digilocker', '--secret', 'whsec_x']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--secret is for --kind sangam, not digilocker/);
  });
});
