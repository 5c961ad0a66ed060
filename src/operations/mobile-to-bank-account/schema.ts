// Request schema of POST /api/v1/bank-account/mobile-to-bank-account (`input` is an alias of `mobile`),
// and the `data` of its answer, for the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { NameMatchObject, NameToCompare } from '../name-match/schema.js';
import { AccountNumber, Alias, Consent, Ifsc, Mobile, ReferenceId } from '../../contract/fields.js';

export const MobileToBankRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  mobile: Mobile,
  input: Type.Optional(Alias('mobile', Mobile)),
  account_number: Type.Optional(AccountNumber),
  ifsc: Type.Optional(Ifsc),
  name: Type.Optional(NameToCompare('The name the client expects at the bank: the answer then carries name_match against the account holder')),
});
export type MobileToBankRequest = Static<typeof MobileToBankRequest>;

/** Its own result fields (the standard ones come from http/responses.ts). */
export const MobileToBankResult = {
  service: PresentIn(['success'], Type.Literal('mobile-to-bank-account')),
  account: PresentIn(
    ['success'],
    Type.Object({
      account_holder_name: Type.String(),
      account_number: Type.String({ description: 'Masked: only the last 4 digits are shown' }),
      ifsc: Type.String({ description: 'IFSC of the branch holding the account; always a code of the IFSC directory in the sandbox' }),
      bank_name: Type.Optional(Nullable(Type.String({ description: "The bank's name from the IFSC directory (the bank using a leased branch code)" }))),
      branch: Nullable(
        Type.String({ description: 'Branch name, when the partner network gives one; null in the sandbox (the offline IFSC directory has no branch names)' }),
      ),
    }),
  ),
  account_number_match: Type.Optional(Type.Boolean({ description: 'Present when account_number was given: it is the linked account' })),
  ifsc_match: Type.Optional(Type.Boolean({ description: "Present when ifsc was given: it is the linked account's branch code" })),
  name_match: NameMatchObject('Present when name was given: it compared with account_holder_name under the account thresholds'),
  account_match: Type.Optional(
    Type.Boolean({ description: 'Deprecated: account_number_match and ifsc_match together (true when every given field matches)', deprecated: true }),
  ),
};
