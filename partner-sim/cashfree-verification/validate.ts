// Owns the checks on `POST /verification/mobile/penny-drop` bodies (PARTNERS.md §5.1). The docs give the
// fields but not which are required, nor their limits [G]; the choices below are Cashfree-like and each
// failure names its field in Cashfree's `<field>_missing` / `<field>_invalid` codes.
import { invalid, missing } from './errors.js';

export interface PennyDropInput {
  verification_id: string;
  /** Always the 10-digit string, whether it came as a number (the docs' sample) or a string. */
  mobile_number: string;
  name: string | null;
  user_consent: { obtained: true; type: string; timestamp: string; purpose: string };
}

/** [G] Cashfree's verification ids elsewhere: at most 50 of letters, digits, `.`, `-`, `_`. */
export const VERIFICATION_ID = /^[A-Za-z0-9._-]{1,50}$/;
/** [G] an Indian mobile number; the docs' sample (`999999999`, nine digits) is a placeholder. */
const MOBILE = /^[6-9][0-9]{9}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function validatePennyDrop(body: unknown): PennyDropInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request_invalid', 'request body should be a JSON object');
  const b = body as Record<string, unknown>;

  if (b.verification_id === undefined || b.verification_id === null || b.verification_id === '') throw missing('verification_id');
  if (typeof b.verification_id !== 'string' || !VERIFICATION_ID.test(b.verification_id)) {
    throw invalid('verification_id_invalid', 'verification_id should be at most 50 characters of alphanumerics, period (.), hyphen (-) and underscore (_)');
  }

  if (b.mobile_number === undefined || b.mobile_number === null || b.mobile_number === '') throw missing('mobile_number');
  // [P] the sample request sends a number, the response a string: accept both.
  const mobile = typeof b.mobile_number === 'number' && Number.isSafeInteger(b.mobile_number) ? String(b.mobile_number) : b.mobile_number;
  if (typeof mobile !== 'string' || !MOBILE.test(mobile)) throw invalid('mobile_number_invalid', 'mobile_number should be a valid 10 digit Indian mobile number');

  let name: string | null = null;
  if (b.name !== undefined && b.name !== null) {
    if (typeof b.name !== 'string' || b.name.trim() === '' || b.name.length > 100) throw invalid('name_invalid', 'name should be a string of 1 to 100 characters');
    name = b.name;
  }

  return { verification_id: b.verification_id, mobile_number: mobile, name, user_consent: validateConsent(b.user_consent) };
}

/**
 * [G] `user_consent` is required with `obtained: true`: a penny drop moves money to a person's account,
 * and the docs' only sample carries it. `type` is `EXPLICIT` (the only value seen).
 */
function validateConsent(c: unknown): PennyDropInput['user_consent'] {
  if (c === undefined || c === null) throw missing('user_consent');
  if (typeof c !== 'object' || Array.isArray(c)) throw invalid('user_consent_invalid', 'user_consent should be an object');
  const u = c as Record<string, unknown>;
  const field = (name: string, ok: (v: unknown) => boolean, why: string): void => {
    if (u[name] === undefined || u[name] === null || u[name] === '') throw missing(`user_consent.${name}`);
    if (!ok(u[name])) throw invalid(`user_consent.${name}_invalid`, `user_consent.${name} ${why}`);
  };
  field('obtained', (v) => v === true, 'should be true: the user must have given consent');
  field('type', (v) => v === 'EXPLICIT', 'should be EXPLICIT');
  field('timestamp', (v) => typeof v === 'string' && ISO_8601.test(v) && !Number.isNaN(Date.parse(v)), 'should be an ISO 8601 date-time such as 2025-10-27T09:24:36Z');
  field('purpose', (v) => typeof v === 'string' && v.trim().length > 0 && v.length <= 500, 'should be a string of 1 to 500 characters');
  return { obtained: true, type: u.type as string, timestamp: u.timestamp as string, purpose: u.purpose as string };
}
