// Owns the translation between our signature-match and Surepass's Signature Comparator (PARTNERS.md
// §6.1): the form in its own field names (one pair: `link_1`+`link_2` or `base64_1`+`base64_2`, and
// `use_pdf`), the answer and error shapes, and the mapping of an answer to our result.
//
// The mapping, and why. Surepass compares TWO signature images and scores their similarity; our
// operation reads a signature on a document (`input`) and scores it 0 to 100 (`name_match_score`,
// "fuzzy match confidence", seed §2.4), optionally "against `name`". Surepass cannot read a name out of
// a signature, so a score against a name would be invented. What it can do faithfully is compare the
// signature in `input` with a reference (specimen) signature, which the client sends in the optional
// `reference_signature` field (a URL or base64 image, like `input`):
//   - name_match_score = Surepass's `score` as it gives it (0–100, two decimals), `matched` its verdict
//     (score ≥ its `threshold`, also returned), `compared_with: "reference_signature"` says what the score
//     measures. A low score is a completed check (success, matched false), as a low name score is in the
//     sandbox; "no signature detected" is a business failure (failed, charged as a completed check).
//   - No reference_signature, or a pair Surepass cannot take as one pair (a URL with a base64 image),
//     is refused before anything is sent: PartnerError, nothing charged, the router may fail over to a
//     partner that reads names. `name` is never compared; when given, the message says so.
import type { PartnerOutcome } from '../connector.js';

// ---- Surepass's shapes, in its names ---------------------------------------------------------------

export interface SpComparatorData {
  client_id?: string;
  threshold?: number;
  score?: number;
  matched?: boolean;
}

/** The 200 envelope [P], and the shape of its other failures `{data: null, status_code, success: false, message, message_code}`. */
export interface SpEnvelope {
  data?: SpComparatorData | null;
  status_code?: number;
  success?: boolean;
  message?: string;
  message_code?: string;
  /** Validation failures: `{errors: {field: text}, message: "Input payload validation failed"}`. */
  errors?: Record<string, string>;
}

/** The form fields of one comparison: exactly one pair [P]. */
export type SpForm = { link_1: string; link_2: string; use_pdf: 'true' | 'false' } | { base64_1: string; base64_2: string; use_pdf: 'true' | 'false' };

// ---- Our choices for the request -------------------------------------------------------------------

type Image = { kind: 'link'; url: string; pdf: boolean } | { kind: 'base64'; b64: string; pdf: boolean };

const URL_LIKE = /^https?:\/\//i;

/** `input` or `reference_signature` read as Surepass takes it, or a reason it cannot take it. */
function imageOf(field: string, v: string): Image | string {
  const s = v.trim();
  if (URL_LIKE.test(s)) {
    if (!URL.canParse(s)) return `${field} is not a valid http(s) URL`;
    return { kind: 'link', url: s, pdf: /\.pdf$/i.test(new URL(s).pathname) };
  }
  // A data URL prefix is dropped; base64url and missing padding are normalised to standard base64.
  let b64 = s.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/i, '').replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (b64.length % 4 === 2) b64 += '==';
  else if (b64.length % 4 === 3) b64 += '=';
  if (b64.length < 8 || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return `${field} must be an http(s) URL or a base64 image`;
  return { kind: 'base64', b64, pdf: Buffer.from(b64.slice(0, 8), 'base64').subarray(0, 5).toString('latin1') === '%PDF-' };
}

/** The form for comparing `input` with `reference`, or why Surepass cannot be asked. */
export function formOf(input: string, reference: string | undefined): SpForm | string {
  if (reference === undefined || reference.trim() === '') {
    return 'Surepass compares two signatures and cannot read a name: live signature-match through it needs reference_signature (the specimen signature, a URL or base64 image)';
  }
  const a = imageOf('input', input);
  if (typeof a === 'string') return a;
  const b = imageOf('reference_signature', reference);
  if (typeof b === 'string') return b;
  const use_pdf = a.pdf || b.pdf ? 'true' : 'false';
  if (a.kind === 'link' && b.kind === 'link') return { link_1: a.url, link_2: b.url, use_pdf };
  if (a.kind === 'base64' && b.kind === 'base64') return { base64_1: a.b64, base64_2: b.b64, use_pdf };
  return 'Surepass takes one pair of the same kind: give input and reference_signature both as URLs or both as base64 images';
}

// ---- Mapping answers to ours -----------------------------------------------------------------------

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const isScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100;

/** Surepass's message_code for an image in which it found no signature [G]. */
export const NO_SIGNATURE_CODE = 'signature_not_detected';

/** Our outcome for a 200 answer; null when it carries no usable score. */
export function outcomeOf(body: unknown, name: string | undefined): PartnerOutcome | null {
  const e = body as SpEnvelope | null;
  const d = e?.data;
  if (!e || typeof e !== 'object' || e.success === false || !d || typeof d !== 'object' || !isScore(d.score)) return null;
  const threshold = isScore(d.threshold) ? d.threshold : null;
  // Surepass documents matched = score ≥ threshold; its own verdict is kept, derived only when absent.
  const matched = typeof d.matched === 'boolean' ? d.matched : threshold !== null ? d.score >= threshold : null;
  const verdict = matched === null ? '' : matched ? ': the signatures match' : ': the signatures do not match';
  const note = name !== undefined ? '; name was not compared (this partner compares signatures only)' : '';
  return {
    status: 'success',
    message: `Signature compared with the reference signature; score ${d.score}${threshold !== null ? ` (threshold ${threshold})` : ''}${verdict}${note}`,
    // Surepass compares signatures and reads no name: extracted_name is null, as the result promises.
    signature: { score: d.score, extractedName: null, matched, threshold, comparedWithReference: true },
  };
}

/** A failure answer that is a completed check: no signature in the image. */
export function noSignatureOutcome(body: unknown): PartnerOutcome | null {
  const e = body as SpEnvelope | null;
  if (e?.message_code !== NO_SIGNATURE_CODE) return null;
  return { status: 'failed', message: 'No signature was detected in the image', signature: { comparedWithReference: true } };
}

/** Surepass's own words for a refusal, trimmed: its message and message_code, or the fields it names. */
export function errorText(body: unknown): string | null {
  const e = body as SpEnvelope | null;
  if (!e || typeof e !== 'object') return null;
  const fields = e.errors && typeof e.errors === 'object' ? Object.entries(e.errors).map(([k, v]) => `${k}: ${String(v)}`) : [];
  const parts = [text(e.message_code), text(e.message), ...fields].filter(Boolean);
  return parts.length ? parts.join('; ').slice(0, 200) : null;
}
