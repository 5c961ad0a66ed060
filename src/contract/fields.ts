// Owns the field rules shared by the operations (CONTRACT §3): each is one TypeBox schema that gives
// validation, the error message a client sees, the TypeScript type and the OpenAPI description.
import { Type, type TSchema } from '@sinclair/typebox';
import type { Ajv } from 'ajv';
import { IFSC_SHAPE, ifscExists } from '../../shared/ifsc.js';
import { isWholePaise } from '../money.js';
import { verhoeffValid } from './verhoeff.js';
import { matchNames, NameMatchInputError } from '../namematch/index.js';

export const ReferenceId = Type.String({
  pattern: '^[A-Za-z0-9._:-]{1,64}$',
  description: "Client's unique reference for reconciliation: 1 to 64 of A-Z a-z 0-9 . _ : -",
  errorMessage: 'reference_id must be 1 to 64 characters of A-Z a-z 0-9 . _ : -',
});

export const Consent = Type.Literal(true, {
  description: 'The end user consented to this operation; must be true',
  errorMessage: 'consent must be true: the end user must consent to this operation',
});

export const Mobile = Type.String({
  pattern: '^[6-9][0-9]{9}$',
  description: '10-digit Indian mobile number',
  errorMessage: 'mobile must be a 10-digit Indian mobile number starting with 6, 7, 8 or 9',
});

const IFSC_FORMAT = 'ifsc must be an 11-character IFSC such as HDFC0001234';
/** A code of the right shape must also exist: a made-up code is refused before any partner call or fee. */
export const Ifsc = Type.String({
  pattern: IFSC_SHAPE.source,
  ifsc: true,
  description: '11-character IFSC of an existing bank branch: 4 letters, 0, then 6 letters or digits',
  errorMessage: {
    pattern: IFSC_FORMAT,
    ifsc: 'ifsc is not a known IFSC: no bank branch has this code',
    type: IFSC_FORMAT,
  },
});

export const AccountNumber = Type.String({
  pattern: '^[0-9]{9,18}$',
  description: 'Bank account number, 9 to 18 digits',
  errorMessage: 'account_number must be 9 to 18 digits',
});

// The pattern is the shape a standard validator can check; `aadhaar` adds the Verhoeff check digit.
export const AadhaarNumber = Type.String({
  pattern: '^([2-9][0-9]{11}|[0-9]{16})$',
  aadhaar: true,
  description: '12-digit Aadhaar number whose first digit is 2-9 and whose last digit is its Verhoeff check digit, or a 16-digit VID',
  errorMessage: 'aadhaar_number must be a valid 12-digit Aadhaar number or a 16-digit VID',
});

export const Vpa = Type.String({
  pattern: '^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}$',
  description: 'UPI ID of the payee, local@handle',
  errorMessage: 'vpa must be a UPI ID such as name@bank',
});

export const Uuid = (field: string) =>
  Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'A UUID; the same key replays the first response',
    errorMessage: `${field} must be a UUID such as 3f1c2b9e-8d4a-4c6e-9b1a-2f5e7d8c9a10`,
  });

/** Idempotency keys on the recharges: a UUID or any 1 to 64 of the reference_id characters. */
export const IdempotencyKey = Type.String({
  pattern: '^[A-Za-z0-9._:-]{1,64}$',
  description: 'Optional idempotency key (or the Idempotency-Key header)',
  errorMessage: 'idempotency_key must be 1 to 64 characters of A-Z a-z 0-9 . _ : -',
});

/**
 * An INR amount of at least ₹0.01 that is a whole number of paise. `paise` (below) checks the decimals
 * exactly; a fractional `multipleOf` would be checked with a floating-point tolerance, which let 5e-324
 * and 1e-12 through as amounts of 0 paise.
 */
export const Amount = (max: number, field = 'amount') =>
  Type.Number({
    minimum: 0.01,
    maximum: max,
    paise: true,
    description: `Amount in INR, at least 0.01 and at most ${max}, at most 2 decimals`,
    errorMessage: `${field} must be an INR amount of at least 0.01 and at most ${max}, with at most 2 decimals`,
  });

export const Code = (field: string, codes: readonly string[], description: string) =>
  Type.String({ enum: [...codes], description, errorMessage: `${field} must be one of ${codes.join(', ')}` });

export const Alias = (of: string, schema: TSchema) => ({ ...schema, description: `Alias of ${of}` });

/** Custom keywords the field schemas above use. */
export function addKeywords(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'aadhaar',
    type: 'string',
    schemaType: 'boolean',
    validate: (_: boolean, v: string) => (/^[2-9][0-9]{11}$/.test(v) && verhoeffValid(v)) || /^[0-9]{16}$/.test(v),
  });
  ajv.addKeyword({ keyword: 'paise', type: 'number', schemaType: 'boolean', validate: (_: boolean, v: number) => isWholePaise(v) });
  // Judges only well-formed codes; `pattern` reports the others, so each bad code gets one message.
  ajv.addKeyword({
    keyword: 'ifsc',
    type: 'string',
    schemaType: 'boolean',
    validate: (_: boolean, v: string) => !IFSC_SHAPE.test(v) || ifscExists(v),
  });
  // A name the name-match engine can read: a letter, and only scripts it reads (Latin, Indic, Perso-Arabic).
  ajv.addKeyword({ keyword: 'personName', type: 'string', schemaType: 'boolean', validate: (_: boolean, v: string) => readableName(v) });
}

/** Whether the name-match engine reads `name` (at least one letter, every letter in a script it knows). */
function readableName(name: string): boolean {
  try {
    matchNames(name, 'A');
    return true;
  } catch (err) {
    if (err instanceof NameMatchInputError) return false;
    throw err;
  }
}
