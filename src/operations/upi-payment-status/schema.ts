// Request schema of GET (and POST) /api/v1/upi-payment-status: fields from the query string or a JSON body.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { Amount, Consent, ReferenceId, Uuid, Vpa } from '../../contract/fields.js';
import { NameMatchFields, NameToCompare } from '../name-match/schema.js';

export const UPI_MAX_INR = 100_000;

export const UpiPaymentRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  vpa: Vpa,
  amount: Amount(UPI_MAX_INR),
  idempotency_key: Uuid('idempotency_key'),
  currency: Type.Optional(Type.Literal('INR', { description: 'Only INR', errorMessage: 'currency must be INR' })),
  beneficiary_id: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'Client-side beneficiary id', errorMessage: 'beneficiary_id must be 1 to 64 characters of A-Z a-z 0-9 . _ : -' }),
  ),
  beneficiary_name: Type.Optional(
    NameToCompare(
      "The payee's name as the client knows it: before paying, Sangam learns the VPA holder's registered name from the payout partner and compares; a reject is a failure with nothing paid, a review follows the account's setting (pay or hold)",
    ),
  ),
});
export type UpiPaymentRequest = Static<typeof UpiPaymentRequest>;

/** Its own result fields (the standard ones come from http/responses.ts). */
export const UpiPaymentResult = {
  txn_id: PresentIn(['success', 'pending'], Type.String({ description: "Sangam's transaction id" })),
  amount: PresentIn(['success', 'pending'], Type.Number({ description: 'INR' })),
  utr: PresentIn(['success'], Nullable(Type.String(), { description: "The bank's UTR; null while pending" })),
  name_match: Type.Optional(
    Type.Object(
      {
        ...NameMatchFields,
        source: Type.Optional(
          Type.Literal('vpa-verification', { description: "Present when the VPA holder's name came from a recent vpa-verification (within the account's reuse window) instead of a new validation" }),
        ),
        verification: Type.Optional(
          Type.Object(
            { txn_id: Type.String(), reference_id: Type.String(), verified_at: Type.String({ format: 'date-time' }) },
            { description: 'The vpa-verification used (with source)' },
          ),
        ),
      },
      { description: "Present when beneficiary_name was given: it compared with the VPA holder's registered name under the account thresholds" },
    ),
  ),
};
