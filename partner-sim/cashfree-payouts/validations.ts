// Owns the emulated Validate Payout V2, `POST /payout/validatePayout` (docs/PARTNER-EMULATORS.md, from
// cashfree.com `api-reference/payouts/v2/validate-payout-v2` [P]): `transfer_id` plus exactly one of
// `vpa` | `phone`, answered synchronously with `{transfer_token, vpa, account_status, name_at_bank}`. The
// holder follows the sandbox's rule (shared/people.ts), in capitals as the docs' sample
// ("JOHN SNOW"); a local part starting `invalid` (the docs' own `invalid@upi`) or `novpa` is INVALID, with
// an empty token [P] and no name [G]. Every validation is kept, for tests to count.
import { randomUUID } from 'node:crypto';
import { vpaHolderName } from '../../shared/people.js';
import { invalid, missing } from './errors.js';
import { checkTransferId, VPA } from './validate.js';

export interface ValidatePayoutAnswer {
  transfer_token: string;
  vpa: string;
  account_status: 'VALID' | 'INVALID';
  name_at_bank: string | null;
}

export interface ValidationRecord extends ValidatePayoutAnswer {
  transfer_id: string;
  at: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

/** [P] transfer_id and exactly one of vpa | phone; [G] the codes and texts, in the V2 naming pattern. Phone look-ups are not emulated. */
function checkValidation(body: unknown): { transferId: string; vpa: string } {
  if (!isObject(body)) throw invalid('request_invalid', 'request body should be a JSON object');
  const transferId = checkTransferId(body.transfer_id);
  if (!absent(body.vpa) && !absent(body.phone)) throw invalid('request_invalid', 'pass exactly one of vpa or phone');
  if (!absent(body.phone)) throw invalid('phone_unsupported', 'phone validation is not supported by this emulator; send vpa');
  if (absent(body.vpa)) throw missing('vpa');
  if (typeof body.vpa !== 'string' || body.vpa.length > 100 || !VPA.test(body.vpa)) throw invalid('vpa_invalid', 'vpa is in invalid format');
  return { transferId, vpa: body.vpa };
}

export function validatePayout(book: ValidationRecord[], body: unknown): ValidatePayoutAnswer {
  const { transferId, vpa } = checkValidation(body);
  const local = vpa.split('@')[0]!.toLowerCase();
  const valid = !local.startsWith('invalid') && !local.startsWith('novpa');
  const answer: ValidatePayoutAnswer = valid
    ? { transfer_token: randomUUID(), vpa, account_status: 'VALID', name_at_bank: vpaHolderName(vpa).toUpperCase() }
    : { transfer_token: '', vpa, account_status: 'INVALID', name_at_bank: null };
  book.push({ ...answer, transfer_id: transferId, at: new Date().toISOString() });
  return answer;
}
