// Owns what of a request or response may enter the audit store or a log line. Identity numbers are
// found two ways and keep only their last 4 digits:
// - by pattern: any 9 or more digits, counting every Unicode decimal digit (\p{Nd}: Devanagari,
//   full-width…), with any run of characters that are neither letters nor digits between them — spaces
//   of every kind (Zs, Zl, Zp: NBSP, U+2028…), dashes (Pd: " - ", en, em), other punctuation (Po: middle
//   dot, colon), symbols, controls and format characters (Cf: U+200B, U+2060…) — so "2341 2341 2346",
//   "2341 – 2341 – 2346", "2341\u200b2341\u200b2346" and "9876543210@ybl" are all caught, in strings
//   and in numbers, integer or not. A letter ends a number. One exception keeps timestamps readable: a
//   number that is exactly a time of day, with a date before it or a UTC offset after it
//   ("2026-01-01 12:30:45.123+05:30", "12:30:45.123"), is kept as it is, unless its digits hold an
//   Aadhaar number ("23:41:23.412346");
// - by meaning: every digit in a field that holds an identity number (aadhaar, uid, vid, mobile,
//   phone, account number, subscriber id), whatever its length.
// Our own and the client's reference fields (reference_id, txn_id, utr…) are kept as given: they are
// identifiers, not personal data (docs/DECISIONS.md) — except an Aadhaar number or VID inside an
// idempotency key, which is masked like any other. Photos, addresses and dates of birth are dropped;
// very long strings (images sent for OCR) are cut. Text PostgreSQL cannot store (NUL, unpaired
// surrogates) becomes U+FFFD, so every answered request has its audit row. A free-text name a person
// chose — an uploaded file's name, which may well be `kyc-234123412346.csv` — is redacted like any
// other field (redactText). maskAadhaar masks only whole Aadhaar numbers and VIDs, wherever they sit,
// and leaves everything else as it is: for stored answers a client still reads (batch rows).
import { verhoeffValid } from '../contract/verhoeff.js';

const DROP_KEYS = new Set(['profile_image', 'photo', 'full_address', 'address', 'care_of', 'dob']);
/** Our own and the client's identifiers: digits in them are references, not personal data. */
const REFERENCE_KEYS = new Set(['reference_id', 'txn_id', 'utr', 'request_id', 'idempotency_key', 'doclocker__client__id', 'verified_at', 'expires_at']);
/**
 * Reference fields a client fills freely that live in the audit store only as body text. (reference_id
 * is kept whole as the row's own column, which search and erasure use; masking its body copy would
 * protect nothing.)
 */
const FREE_REFERENCE_KEYS = new Set(['idempotency_key']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Fields whose value is an identity number: every digit but the last 4 is masked. */
const IDENTITY_KEY = /aadhaar|(^|_)(uid|vid)$|mobile|phone|account_?number|subscriber_?id/i;
/** Fields that name a person in text (an e-mail, a consent's subject): only their last 4 characters stay. */
const PERSON_KEY = /e-?mail|^subject$/i;
const LONG_STRING = 512;
const DIGIT_RUN = /\p{Nd}(?:[^\p{L}\p{N}]*\p{Nd}){8,}/gu;
const DIGIT = /\p{Nd}/gu;
/** A timestamp, the one kind of long number that is not an identity number: kept whole. */
const TIMESTAMP =
  /^(?:\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[ ]+)?(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d{1,6})?)?(?:[ ]?[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?$/;
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MAX_DEPTH = 8;

/** Every digit of `s` but the last 4 becomes X; separators and other characters stay. */
function maskAllButLast4(s: string): string {
  const total = s.match(DIGIT)?.length ?? 0;
  let seen = 0;
  return s.replace(DIGIT, (d) => (++seen > total - 4 ? d : 'X'));
}

/** The digits of a run as ASCII, each Unicode decimal digit by its value (Nd digits come in blocks of ten from 0). */
function digitsOf(run: string): string {
  let out = '';
  for (const ch of run.match(DIGIT) ?? []) {
    const cp = ch.codePointAt(0)!;
    let zero = cp;
    while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    out += String((cp - zero) % 10);
  }
  return out;
}

/** Some 12 digits in a row of `digits` are an Aadhaar number (first 2-9, Verhoeff-valid), or 16 a VID. */
function holdsAadhaar(digits: string): boolean {
  for (let i = 0; i + 12 <= digits.length; i++) {
    if (digits[i]! >= '2' && verhoeffValid(digits.slice(i, i + 12))) return true;
    if (i + 16 <= digits.length && verhoeffValid(digits.slice(i, i + 16))) return true;
  }
  return false;
}

/** Every run of digits (across any separators) masked to its last 4, except a timestamp that holds no identity number. */
export const maskDigits = (s: string): string =>
  s.replace(DIGIT_RUN, (run) => (TIMESTAMP.test(run) && !holdsAadhaar(digitsOf(run)) ? run : maskAllButLast4(run)));

const storable = (s: string) => s.replace(UNSTORABLE, '\ufffd');

/**
 * A reference field's value: kept as given, except that in an idempotency key a number that holds an
 * Aadhaar number or a VID keeps only its last 4 digits (`kyc-234123412346` must not put the number in
 * the audit store). Other numbers (order ids) stay as given, and so do our own references (UTRs) and
 * UUIDs: random by construction, yet one in about 145 holds a Verhoeff-valid run across its dashes.
 */
function referenceText(key: string, v: string): string {
  const text = storable(v);
  if (!FREE_REFERENCE_KEYS.has(key) || UUID.test(text)) return text;
  return text.replace(DIGIT_RUN, (run) => (holdsAadhaar(digitsOf(run)) ? maskAllButLast4(run) : run));
}

function redactString(s: string, identity: boolean): string {
  const cut = s.length > LONG_STRING ? `[${s.length} characters omitted]` : storable(s);
  return identity ? maskAllButLast4(cut) : maskDigits(cut);
}

/** Every character of every string in `value` but the last 4 becomes `*`. */
function maskPerson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storable('*'.repeat(Math.max(0, value.length - 4)) + value.slice(-4));
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return typeof value === 'object' && value !== null ? '[redacted]' : value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactString(k, false), maskPerson(v, depth + 1)]));
}

/** A free-text value (a file name, a label) as the audit store may keep it: every run of 9+ digits masked to its last 4. */
export const redactText = (s: string): string => redactString(s, false);

/**
 * `value` with every run of digits that holds an Aadhaar number or a VID masked to its last 4 digits,
 * in strings and numbers at any depth, keys untouched; nothing else changes (UUIDs, timestamps and
 * other numbers stay whole unless they hold one).
 */
export function maskAadhaar(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(DIGIT_RUN, (run) => (holdsAadhaar(digitsOf(run)) ? maskAllButLast4(run) : run));
  if (typeof value === 'number') {
    const text = String(value);
    const masked = maskAadhaar(text) as string;
    return masked === text ? value : masked;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH * 4) return value;
  if (Array.isArray(value)) return value.map((v) => maskAadhaar(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAadhaar(v, depth + 1)]));
}

export function redact(value: unknown, depth = 0, identity = false): unknown {
  if (typeof value === 'string') return redactString(value, identity);
  if (typeof value === 'number') {
    const text = String(value);
    const masked = identity ? maskAllButLast4(text) : maskDigits(text);
    return masked === text ? value : masked;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1, identity));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.toLowerCase();
    out[redactString(k, false)] = DROP_KEYS.has(key)
      ? '[redacted]'
      : PERSON_KEY.test(key)
        ? maskPerson(v, depth + 1)
        : REFERENCE_KEYS.has(key) && typeof v === 'string' && v.length <= 128
        ? referenceText(key, v)
        : redact(v, depth + 1, identity || IDENTITY_KEY.test(key));
  }
  return out;
}

/**
 * A request URL as it may be logged: every path segment and query value redacted like a body field,
 * except the segment that is the request's `reference` (GET /transactions/{reference_id}): it is kept
 * as the row's reference_id column keeps it, so the path never masks what that column shows.
 */
export function redactUrl(url: string, reference?: string | null): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const segment = (seg: string) => (reference && seg === reference ? referenceText('reference_id', seg) : redactString(seg, false));
  const segments = path.split('/').map((seg) => encodeURIComponent(segment(decode(seg))).replace(/%2C/g, ','));
  // A partner whose webhooks are unsigned (Setu) is given a URL with a secret segment after /webhooks/.
  if (segments[1] === 'partners' && segments[3] === 'webhooks' && segments.length > 4) segments[4] = '[secret]';
  if (q < 0) return segments.join('/');
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decode(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
      const key = name.toLowerCase();
      const identity = IDENTITY_KEY.test(name) && !REFERENCE_KEYS.has(key);
      return `${encodeURIComponent(redactString(name, false))}=${encodeURIComponent(REFERENCE_KEYS.has(key) ? referenceText(key, value) : redactString(value, identity))}`;
    });
  return `${segments.join('/')}?${query.join('&')}`;
}
