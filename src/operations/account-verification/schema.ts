// Request schema of POST /api/v1/bank-account/account-verification (CONTRACT §14), and the `data` of
// its answer, for the OpenAPI document. The IFSC must be a code of the directory (contract/fields.ts).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { NameMatchObject, NameToCompare } from '../name-match/schema.js';
import { AccountNumber, Consent, Ifsc, ReferenceId } from '../../contract/fields.js';

export const AccountVerificationRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  account_number: AccountNumber,
  ifsc: Ifsc,
  name: Type.Optional(NameToCompare('The name the client expects at the bank: the answer then carries name_match against name_at_bank')),
});
export type AccountVerificationRequest = Static<typeof AccountVerificationRequest>;

/** What a payee verification found (CONTRACT §14); the same words for an account and a VPA. */
export const PayeeStatus = (what: string) =>
  Type.Union([Type.Literal('valid'), Type.Literal('invalid'), Type.Literal('unknown')], {
    description: `valid: the ${what} exists and can be credited; invalid: it does not exist, is closed or frozen, or cannot be credited (reason says which); unknown: the bank did not answer (status is then failed or pending, never a guess)`,
  });

/** The fields both payee verifications answer beside their status. */
export const PayeeFields = {
  reason: Type.Optional(Type.String({ description: 'Why invalid, in words: does not exist, closed, frozen, cannot be credited' })),
  name_at_bank: PresentIn(['success'], Nullable(Type.String(), { description: "The holder's name as the bank has it; null when the bank gave none (or did not answer)" })),
  name_match: NameMatchObject('Present when name was given and the bank gave a name: it compared name with name_at_bank under the account thresholds'),
};

/** Its own result fields (the standard ones come from http/responses.ts). */
export const AccountVerificationResult = {
  account_status: PresentIn(['success'], PayeeStatus('account')),
  ...PayeeFields,
  bank: PresentIn(
    ['success', 'pending'],
    Type.Object({
      name: Nullable(Type.String(), { description: "The bank's name from the IFSC directory (the bank using a leased branch code)" }),
      branch: Nullable(Type.String(), { description: 'Branch name; null where the offline IFSC directory has none' }),
      ifsc: Type.String({ description: 'The IFSC the account was checked at' }),
    }),
  ),
  method: Type.Optional(
    Type.Union([Type.Literal('penny_drop'), Type.Literal('pennyless')], { description: 'How the partner checked: penny_drop (a ₹1 credit, with its utr) or pennyless' }),
  ),
  utr: Type.Optional(Type.String({ description: "The penny drop's UTR (method penny_drop)" })),
};
