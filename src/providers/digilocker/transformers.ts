// Owns DigiLocker's own shapes (PARTNERS.md §1) and their mapping to ours: the token response (both
// the spec's and the real-world field spellings), the `{error, error_description}` body, the eAadhaar
// XML elements (`KycRes`, `UidData`, `Poi`, `Poa`, `Pht`; Rar, LData, Prn and tkn are never read), and the
// outcomes of doclocker-download-aadhaar (its typed AadhaarResult: the identity record, or why there is
// none; answer.ts names the seed §2.5 fields). Reads only from the signed content that xml-verify.ts
// hands over; never sees unverified XML.
import type { Element } from '@xmldom/xmldom';
import type { AadhaarRecord, PartnerOutcome } from '../connector.js';

/** The token endpoint's 200 body, §1.4: the spec's names and the ones real responses use. */
export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number | string;
  scope?: string;
  refresh_token?: string;
  consent_valid_till?: number | string;
  digilockerid?: string;
  digilocker_id?: string;
  eaadhaar?: 'Y' | 'N';
  eaadhar?: 'Y' | 'N';
  reference_key?: string;
}

/** Errors everywhere in this API, §1.4: `{"error": "<code>", "error_description": "<text>"}`. */
export interface ErrorBody {
  error: string;
  error_description?: string;
}

/** What we keep of a token answer: nothing personal (name, dob, mobile are dropped here). */
export interface Grant {
  accessToken: string;
  expiresInS: number;
  eaadhaar: 'Y' | 'N' | null;
}

const parseJson = (body: Buffer): unknown => {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
};

/** The grant in a 200 token answer, or null when it is not one (no token, not Bearer). */
export function grantFrom(body: Buffer): Grant | null {
  const t = parseJson(body) as Partial<TokenResponse> | undefined;
  if (!t || typeof t.access_token !== 'string' || !t.access_token) return null;
  if (t.token_type !== undefined && String(t.token_type).toLowerCase() !== 'bearer') return null;
  const expires = Number(t.expires_in);
  const flag = t.eaadhaar ?? t.eaadhar;
  return {
    accessToken: t.access_token,
    // §1.11: 3600 is the spec's example; an answer without one is held for that long.
    expiresInS: Number.isFinite(expires) && expires > 0 ? Math.floor(expires) : 3600,
    eaadhaar: flag === 'Y' || flag === 'N' ? flag : null,
  };
}

/** The partner's error code and text, for messages; its text is the partner's, never secret. */
export function errorFrom(status: number, body: Buffer): ErrorBody {
  const e = parseJson(body) as Partial<ErrorBody> | undefined;
  if (e && typeof e.error === 'string' && e.error) {
    return { error: e.error.slice(0, 80), error_description: typeof e.error_description === 'string' ? e.error_description.slice(0, 200) : undefined };
  }
  return { error: `http_${status}` };
}

export const describe = (e: ErrorBody) => (e.error_description ? `${e.error}: ${e.error_description}` : e.error);

// The wording of the core's sandbox refusals (operations/doclocker-download-aadhaar/handler.ts), so a
// client sees the same message whichever environment answers.
export const REFUSALS = {
  pending: 'Consent pending: the user has not yet authorized this document-locker request',
  denied: 'Consent denied: the user refused this document-locker request',
  expired: 'The document-locker request expired before the user authorized it',
} as const;

/** A failed download: the message and the seed's status, and no document content. */
export function downloadFailed(message: string): PartnerOutcome {
  return { status: 'failed', message, aadhaar: { download: { done: false, message } } };
}

/** §1.7's documented 404s on the eAadhaar endpoint, in our words (the partner's code kept for support). */
const NOT_FOUND: Record<string, string> = {
  aadhaar_not_linked: 'Aadhaar is not linked to this DigiLocker account (aadhaar_not_linked)',
  aadhaar_not_available: 'Aadhaar data is not available for this DigiLocker user; they must perform Aadhaar eKYC again (aadhaar_not_available)',
};

/**
 * The outcome of a definitive refusal by the eAadhaar endpoint (401, documented 404), or null when the
 * answer is not one we can call final.
 */
export function eaadhaarRefusal(status: number, body: Buffer): PartnerOutcome | null {
  const e = errorFrom(status, body);
  if (status === 401) return downloadFailed('DigiLocker refused the access token (expired or revoked by the user); initialize again');
  if (status === 404 && NOT_FOUND[e.error]) return downloadFailed(NOT_FOUND[e.error]!);
  return null;
}

// ---- the eAadhaar XML (§1.8), read from the verified, canonical content ----

const attr = (el: Element | null | undefined, name: string) => (el?.getAttribute(name) ?? '').trim();

const child = (parent: Element | null | undefined, name: string): Element | null => {
  if (!parent) return null;
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === name) return n as Element;
  }
  return null;
};

/** The `KycRes` of a root that has one: `<Certificate>` (observed payloads) wraps it, the spec's document is one. */
function kycRes(root: Element): Element | null {
  if (root.localName === 'Certificate') return child(child(root, 'CertificateData'), 'KycRes');
  if (root.localName === 'KycRes') return root;
  return null;
}

/**
 * `UidData` of any root this endpoint is known to send: `<Certificate>` (observed), `<KycRes>` (the
 * partner's spec, EaadharXamlSchema) or `<OfflinePaperlessKyc>`.
 */
function uidData(root: Element): Element | null {
  if (root.localName === 'OfflinePaperlessKyc') return child(root, 'UidData');
  return child(kycRes(root), 'UidData');
}

/**
 * When the document says it was signed: `KycRes@ts` (ISO 8601 with offset; the spec's root or the one
 * inside `<Certificate>`), or for the offline format
 * the timestamp in `referenceId` (last 4 of the number, then yyyyMMddHHmmssSSS, Indian time).
 */
export function signingTime(root: Element): Date | null {
  if (root.localName !== 'OfflinePaperlessKyc') {
    const ts = attr(kycRes(root), 'ts');
    const d = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(ts) ? new Date(ts) : null;
    return d && Number.isFinite(d.getTime()) ? d : null;
  }
  const m = /^\d{4}(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})$/.exec(attr(root, 'referenceId'));
  if (!m) return null;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}+05:30`);
  return Number.isFinite(d.getTime()) ? d : null;
}

/**
 * Our record from the signed root, or null when it lacks what a record needs (a name and a masked
 * uid ending in 4 digits). Only the last 4 digits of the uid survive, whatever the document holds.
 */
export function recordFrom(root: Element): AadhaarRecord | null {
  const uid = uidData(root);
  const poi = child(uid, 'Poi');
  const poa = child(uid, 'Poa');
  const last4 = /(\d{4})$/.exec(attr(uid, 'uid'))?.[1] ?? (root.localName === 'OfflinePaperlessKyc' ? /^(\d{4})/.exec(attr(root, 'referenceId'))?.[1] : undefined);
  const name = attr(poi, 'name');
  if (!uid || !name || !last4) return null;
  const a = (k: string) => attr(poa, k);
  const lines = [a('house'), a('street'), a('lm') || a('landmark'), a('loc'), a('vtc'), a('po'), a('subdist'), a('dist'), a('state')].filter(Boolean);
  const deduped = lines.filter((l, i) => l !== lines[i - 1]);
  const pc = a('pc');
  const country = a('country');
  return {
    fullName: name,
    careOf: a('co') || a('careof'),
    dob: attr(poi, 'dob'),
    gender: attr(poi, 'gender'),
    maskedAadhaar: `XXXXXXXX${last4}`,
    fullAddress: `${deduped.join(', ')}${pc ? ` - ${pc}` : ''}${country ? `, ${country}` : ''}`,
    photo: (child(uid, 'Pht')?.textContent ?? '').replace(/\s+/g, ''),
    address: { country, state: a('state'), district: a('dist'), street: a('street') },
  };
}

export function downloadSucceeded(record: AadhaarRecord): PartnerOutcome {
  const message = 'Aadhaar XML downloaded';
  return { status: 'success', message, aadhaar: { record, download: { done: true, message } } };
}
