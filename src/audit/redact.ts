// Owns what of a request or response may enter the audit store. Identity numbers (Aadhaar, VID, mobile,
// account numbers: any run of 9 or more digits) keep only their last 4 digits, wherever they appear;
// photos and address lines are dropped; very long strings (images sent for OCR) are cut.
const DROP_KEYS = new Set(['profile_image', 'photo', 'full_address', 'address', 'care_of', 'dob']);
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
    out[k] = DROP_KEYS.has(k.toLowerCase()) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}
