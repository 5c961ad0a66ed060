// Request schema of GET (and POST) /api/v1/upi-payment-status: fields from the query string or a JSON body.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { Amount, Consent, ReferenceId, Uuid, Vpa } from '../fields.js';

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
}, { examples: [{ reference_id: 'upi-0001', consent: true, vpa: 'success@sandbox', amount: 100.5, idempotency_key: '3f1c2b9e-8d4a-4c6e-9b1a-2f5e7d8c9a10' }] });
export type UpiPaymentRequest = Static<typeof UpiPaymentRequest>;

/** Its own result fields (the standard ones come from http/responses.ts). */
export const UpiPaymentResult = {
  txn_id: PresentIn(['success'], Type.String({ description: "Sangam's transaction id" })),
  amount: PresentIn(['success'], Type.Number({ description: 'INR' })),
  utr: PresentIn(['success'], Nullable(Type.String(), { description: "The bank's UTR; null while pending" })),
};
