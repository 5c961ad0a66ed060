// Request schema of POST /api/v1/bank-account/mobile-to-bank-account (`input` is an alias of `mobile`).
import { Type, type Static } from '@sinclair/typebox';
import { AccountNumber, Alias, Consent, Ifsc, Mobile, ReferenceId } from '../fields.js';

export const MobileToBankRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  mobile: Mobile,
  input: Type.Optional(Alias('mobile', Mobile)),
  account_number: Type.Optional(AccountNumber),
  ifsc: Type.Optional(Ifsc),
});
export type MobileToBankRequest = Static<typeof MobileToBankRequest>;
