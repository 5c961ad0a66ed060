// Owns doclocker-download-aadhaar against DigiLocker: the consent state of the client id, the eAadhaar
// fetch with the session's Bearer token, its verification (xml-verify.ts), the mapping to the seed's
// fields, and the end of the token.
//
// Charging: a failure on DigiLocker's side before a verified answer (unreachable, timeout, 5xx, an
// unexpected status) throws PartnerError, so the core fails the transaction with a 502 and charges
// nothing. The token is then kept: fetching the XML again is harmless (a read), so the client may
// retry with the same client id. A definitive answer (the document, a documented 404, a 401) is
// final: the token is forgotten and revoked (retried until confirmed: revoke.ts), and the answer is an outcome: success when
// every check passed, failed — naming the reason and carrying no document content — otherwise.
//
// Xml_Url: the XML is kept exactly as received under `xml:<txnId>` in the partner sessions (so only
// encrypted at rest) for 24 hours, and document() serves it, byte for byte as signed.
import type { X509Certificate } from 'node:crypto';
import { PartnerError, type PartnerOutcome } from '../connector.js';
import { headerValue } from './http.js';
import { DECIDED_TTL_S, type ClientSession } from './session.js';
import { downloadFailed, downloadSucceeded, eaadhaarRefusal, recordFrom, REFUSALS } from './transformers.js';
import { verifyEaadhaar } from './xml-verify.js';
import { revokeToken, type Retrier, type RevokeDeps } from './revoke.js';

/** What the OAuth steps and revoking have, plus where the eAadhaar is fetched and the CAs trusted to sign it. */
export interface DownloadDeps extends RevokeDeps {
  /** Tried in order: a 404 for one (the route is not served) tries the next (index.ts). */
  eaadhaarPaths: readonly string[];
  anchors: readonly X509Certificate[];
  retrier: Retrier;
}


/** Why a session cannot download, in the core's words; null when it can. */
function refusal(s: ClientSession | undefined): PartnerOutcome | null {
  if (!s) return downloadFailed(REFUSALS.expired);
  switch (s.status) {
    case 'pending':
      return downloadFailed(REFUSALS.pending);
    case 'denied':
      return downloadFailed(REFUSALS.denied);
    case 'failed':
      return downloadFailed(`DigiLocker did not complete the authorization${s.reason ? ` (${s.reason})` : ''}; initialize again`);
    case 'used':
      return downloadFailed('This doclocker__client__id was already used for a download; initialize again');
    case 'authorized':
      return s.accessToken ? null : downloadFailed(REFUSALS.expired);
  }
}

export async function download(d: DownloadDeps, r: { txnId: string; clientId: string }): Promise<PartnerOutcome> {
  const session = await d.sessions.client(r.clientId);
  const refused = refusal(session);
  if (refused || !session?.accessToken) return refused ?? downloadFailed(REFUSALS.expired);
  const token = session.accessToken;

  let res!: Awaited<ReturnType<typeof d.http.call>>;
  for (const path of d.eaadhaarPaths) {
    res = await d.http.call({
      method: 'GET',
      url: `${d.url}${path}`,
      headers: { authorization: `Bearer ${token}`, accept: 'application/xml' },
      timeoutMs: d.ctx.timeoutFor('doclocker-download-aadhaar'),
    });
    // Only the gateway's 404 for a route not served tries the next path; DigiLocker's documented 404s
    // (no such document for this user) are answers.
    if (res.status !== 404 || eaadhaarRefusal(res.status, res.body)) break;
  }
  const final = res.status === 200 ? null : eaadhaarRefusal(res.status, res.body);
  if (res.status !== 200 && !final) {
    throw new PartnerError('unavailable', `DigiLocker could not serve the eAadhaar document (HTTP ${res.status}); try again`);
  }
  // A definitive answer: the token has done its work whatever the verdict.
  await finish(d, r.clientId, session, token, r.txnId);
  if (final) return final;

  const verdict = verifyEaadhaar(res.body, headerValue(res.headers, 'hmac'), { clientSecret: d.clientSecret, anchors: d.anchors });
  // The detail is our own wording (and at most the signer certificate's subject), never document content.
  if (!verdict.ok) return downloadFailed(`The eAadhaar document failed verification (${verdict.reason}): ${verdict.detail}`);
  const record = recordFrom(verdict.root);
  if (!record) return downloadFailed('The eAadhaar document is signed but lacks the identity record (name or masked number)');
  await d.sessions.putXml(r.txnId, verdict.xml);
  return downloadSucceeded(record);
}

/**
 * A consent withdrawn before the download: the held token is forgotten and revoked, and a later
 * download is told the user denied access. False when no token is held (not authorized, or spent).
 */
export async function revokeGrant(d: DownloadDeps, clientId: string): Promise<boolean> {
  const session = await d.sessions.client(clientId);
  if (!session?.accessToken) return false;
  await finish(d, clientId, session, session.accessToken, session.txnId, 'denied');
  return true;
}

/**
 * Forgets the token, then revokes it at DigiLocker (revoke.ts: the spec's JSON call); a revoke that
 * fails is retried durably and surfaced there, never silently dropped. `txnId` is the transaction a
 * person is shown if it keeps failing.
 */
async function finish(d: DownloadDeps, clientId: string, session: ClientSession, token: string, txnId: string, next: 'used' | 'denied' = 'used'): Promise<void> {
  await d.sessions.putClient(clientId, { status: next, txnId: session.txnId, verifier: '', ...(next === 'denied' && { reason: 'consent withdrawn' }) }, DECIDED_TTL_S);
  await revokeToken(d, token, txnId, d.retrier);
}

export async function document(d: DownloadDeps, txnId: string) {
  const body = await d.sessions.xml(txnId);
  return body === undefined ? null : { contentType: 'application/xml; charset=utf-8', body };
}
