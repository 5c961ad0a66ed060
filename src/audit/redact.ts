// Owns what of a request or response may enter the audit store. Identity numbers (Aadhaar, VID, mobile,
// account numbers: any run of 9 or more digits) keep only their last 4 digits, wherever they appear
// except in our own reference fields (reference_id, txn_id, utr…);
// photos and address lines are dropped; very long strings (images sent for OCR) are cut.
const DROP_KEYS = new Set(['profile_image', 'photo', 'full_address', 'address', 'care_of', 'dob']);
/** Our own and the client's identifiers: digits in them are references, not personal data. */
const REFERENCE_KEYS = new Set(['reference_id', 'txn_id', 'utr', 'request_id', 'idempotency_key', 'doclocker__client__id', 'verified_at', 'expires_at']);
const LONG_STRING = 512;
const DIGIT_RUN = /\d{9,}/g;
const MAX_DEPTH = 8;

export const maskDigits = (s: string) => s.replace(DIGIT_RUN, (d) => 'X'.repeat(d.length - 4) + d.slice(-4));

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    const s = value.length > LONG_STRING ? `[${value.length} characters omitted]` : value;
    return maskDigits(s);
  }
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) >= 1e8 ? maskDigits(String(value)) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.toLowerCase();
    out[k] = DROP_KEYS.has(key) ? '[redacted]' : REFERENCE_KEYS.has(key) && typeof v === 'string' && v.length <= 128 ? v : redact(v, depth + 1);
  }
  return out;
}
