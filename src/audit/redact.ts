// Owns what of a request or response may enter the audit store or a log line. Identity numbers are
// found two ways and keep only their last 4 digits:
// - by pattern: any run of 9 or more digits, counting every Unicode decimal digit (Devanagari,
//   full-width…) and allowing one separator (space, dash, dot, slash, underscore, comma) between
//   digits, so "2341 2341 2346", "2341-2341-2346" and "9876543210@ybl" are all caught, in strings and
//   in numbers, integer or not;
// - by meaning: every digit in a field that holds an identity number (aadhaar, uid, vid, mobile,
//   phone, account number, subscriber id), whatever its length.
// Our own and the client's reference fields (reference_id, txn_id, utr…) are kept as given: they are
// identifiers, not personal data (docs/DECISIONS.md). Photos, addresses and dates of birth are
// dropped; very long strings (images sent for OCR) are cut. Text PostgreSQL cannot store (NUL,
// unpaired surrogates) becomes U+FFFD, so every answered request has its audit row.
const DROP_KEYS = new Set(['profile_image', 'photo', 'full_address', 'address', 'care_of', 'dob']);
/** Our own and the client's identifiers: digits in them are references, not personal data. */
const REFERENCE_KEYS = new Set(['reference_id', 'txn_id', 'utr', 'request_id', 'idempotency_key', 'doclocker__client__id', 'verified_at', 'expires_at']);
/** Fields whose value is an identity number: every digit but the last 4 is masked. */
const IDENTITY_KEY = /aadhaar|(^|_)(uid|vid)$|mobile|phone|account_?number|subscriber_?id/i;
const LONG_STRING = 512;
const DIGIT_RUN = /\p{Nd}(?:[\s\-./_,]?\p{Nd}){8,}/gu;
const DIGIT = /\p{Nd}/gu;
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MAX_DEPTH = 8;

/** Every digit of `s` but the last 4 becomes X; separators and other characters stay. */
function maskAllButLast4(s: string): string {
  const total = s.match(DIGIT)?.length ?? 0;
  let seen = 0;
  return s.replace(DIGIT, (d) => (++seen > total - 4 ? d : 'X'));
}

export const maskDigits = (s: string): string => s.replace(DIGIT_RUN, maskAllButLast4);

const storable = (s: string) => s.replace(UNSTORABLE, '\ufffd');

function redactString(s: string, identity: boolean): string {
  const cut = s.length > LONG_STRING ? `[${s.length} characters omitted]` : storable(s);
  return identity ? maskAllButLast4(cut) : maskDigits(cut);
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
      : REFERENCE_KEYS.has(key) && typeof v === 'string' && v.length <= 128
        ? storable(v)
        : redact(v, depth + 1, identity || IDENTITY_KEY.test(key));
  }
  return out;
}

/** A request URL as it may be logged: every path segment and query value redacted like a body field. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const segments = path.split('/').map((seg) => encodeURIComponent(redactString(decode(seg), false)).replace(/%2C/g, ','));
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
      const identity = IDENTITY_KEY.test(name) && !REFERENCE_KEYS.has(name.toLowerCase());
      return `${encodeURIComponent(redactString(name, false))}=${encodeURIComponent(REFERENCE_KEYS.has(name.toLowerCase()) ? storable(value) : redactString(value, identity))}`;
    });
  return `${segments.join('/')}?${query.join('&')}`;
}
