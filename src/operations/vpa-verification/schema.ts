// Request schema of POST /api/v1/upi-payment/vpa-verification (CONTRACT §14), and the `data` of its
// answer, for the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { PresentIn } from '../../http/responses.js';
import { NameToCompare } from '../name-match/schema.js';
import { Consent, ReferenceId, Vpa } from '../../contract/fields.js';
import { PayeeFields, PayeeStatus } from '../account-verification/schema.js';

export const VpaVerificationRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  vpa: Vpa,
  name: Type.Optional(NameToCompare('The name the client expects for the UPI ID: the answer then carries name_match against name_at_bank')),
});
export type VpaVerificationRequest = Static<typeof VpaVerificationRequest>;

/** Its own result fields (the standard ones come from http/responses.ts). */
export const VpaVerificationResult = {
  vpa: PresentIn(['success', 'pending'], Type.String({ description: 'The UPI ID verified, as sent' })),
  vpa_status: PresentIn(['success'], PayeeStatus('UPI ID')),
  ...PayeeFields,
  ifsc: Type.Optional(Type.String({ description: 'IFSC of the account behind the UPI ID, where the partner returns it' })),
  account_type: Type.Optional(Type.String({ description: 'Type of the account behind the UPI ID (savings, current…), where the partner returns it' })),
};
