// Owns the public answer of a partner's outcome (Hyperswitch's router owns the answer, its connectors'
// transformers the partner's shape): a connector, or an operation's sandbox, reports its result typed
// per kind of operation, in our terms (connector.ts's PartnerResult): a payment's or a recharge's
// (MoneyResult, amounts in integer paise), a signature comparison's, a bank account lookup's, a
// document-locker session's or download's. Here alone it becomes the answer's own fields, by their
// public names (`txn_id`, `amount` and `commission` in INR, `utr`; `name_match_score`; `account`;
// `doclocker__client__id`; the seed's `Aadhaar_Xml_Data`, `Errorcode`…), in the order the answer shows
// them. The router applies it to everything a live connector reports, the sandbox connector to every
// sandbox answer.
import { paiseToInr } from '../money.js';
import type {
  AadhaarResult,
  AccountResult,
  DoclockerSession,
  FinalOutcome,
  MoneyResult,
  Outcome,
  PartnerFinal,
  PartnerOutcome,
  PartnerReport,
  PartnerResult,
  PayeeResult,
  SignatureResult,
} from './connector.js';

/** The fields of `o` in their order, without those left undefined (an absent member leaves its field out; null stays). */
function present(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const inr = (paise: number | undefined) => (paise === undefined ? undefined : paiseToInr(paise));

/** A payment's or a recharge's result fields, by their public names; an absent member leaves its field out. */
export function moneyFields(r: MoneyResult): Record<string, unknown> {
  return present({ txn_id: r.txnId, amount: inr(r.amountPaise), operator: r.operator, utr: r.utr, commission: inr(r.commissionPaise) });
}

/** A signature comparison's result fields (signature-match); an absent member leaves its field out. */
export function signatureFields(r: SignatureResult): Record<string, unknown> {
  return present({
    name_match_score: r.score,
    extracted_name: r.extractedName,
    matched: r.matched,
    threshold: r.threshold,
    compared_with: r.comparedWithReference ? 'reference_signature' : undefined,
  });
}

/** A bank account lookup's result fields (mobile-to-bank-account): `service` always, the rest as known. */
export function accountFields(r: AccountResult): Record<string, unknown> {
  const a = r.account;
  return present({
    service: 'mobile-to-bank-account',
    account: a && { account_holder_name: a.holderName, account_number: a.maskedNumber, ifsc: a.ifsc, bank_name: a.bankName, branch: a.branch },
    account_number_match: r.accountNumberMatch,
    ifsc_match: r.ifscMatch,
    account_match: r.all,
  });
}

/** A document-locker session's result fields (doclocker-initialize); an absent member leaves its field out. */
export function sessionFields(r: DoclockerSession): Record<string, unknown> {
  return present({ doclocker__client__id: r.clientId, authorization_url: r.authorizationUrl, expires_at: r.expiresAt?.toISOString() });
}

/** A document-locker download's result fields (doclocker-download-aadhaar): the seed's §2.5 record and status fields. */
export function aadhaarFields(r: AadhaarResult): Record<string, unknown> {
  const p = r.record;
  return {
    ...(p
      ? {
          Aadhaar_Xml_Data: {
            Full_Name: p.fullName,
            Care_Of: p.careOf,
            Dob: p.dob,
            Gender: p.gender,
            Masked_Aadhaar: p.maskedAadhaar,
            Full_Address: p.fullAddress,
            Profile_Image: p.photo,
            Address: { Country: p.address.country, State: p.address.state, Dist: p.address.district, Street: p.address.street },
          },
        }
      : {}),
    ...(r.download
      ? r.download.done
        ? { Errorcode: 100, Status: 'success', Message: r.download.message }
        : { Errorcode: 120, Status: 'Failed', Message: r.download.message }
      : {}),
  };
}

/** A result's public fields, by its kind. */
function fieldsOf(r: PartnerResult): Record<string, unknown> {
  if ('money' in r) return moneyFields(r.money);
  if ('signature' in r) return signatureFields(r.signature);
  if ('account' in r) return accountFields(r.account);
  if ('session' in r) return sessionFields(r.session);
  if ('bankAccount' in r) return payeeFields('account_status', r.bankAccount);
  if ('vpa' in r) return payeeFields('vpa_status', r.vpa);
  return aadhaarFields(r.aadhaar);
}

/**
 * A payee verification's fields (CONTRACT §14): `account_status` or `vpa_status`, `reason` when invalid,
 * `name_at_bank`, and what the partner says of how it checked (`method`, `utr`) or of the account behind
 * a VPA (`ifsc`, `account_type`). The operation adds the bank (IFSC directory) and the name match.
 */
function payeeFields(statusField: 'account_status' | 'vpa_status', p: PayeeResult): Record<string, unknown> {
  return present({ [statusField]: p.status, reason: p.reason, name_at_bank: p.nameAtBank, method: p.method, utr: p.utr, ifsc: p.ifsc, account_type: p.accountType });
}

const finalOf = ({ status, message, ...result }: PartnerFinal): FinalOutcome => ({ status, message, fields: fieldsOf(result) });

/** A connector's outcome as the core keeps and shows it. */
export function answerOf(o: PartnerOutcome): Outcome {
  const { status, message, settle, partnerRef } = o;
  return {
    status,
    message,
    fields: fieldsOf(o),
    ...(settle ? { settle: { after_ms: settle.after_ms, final: finalOf(settle.final) } } : {}),
    ...(partnerRef !== undefined ? { partnerRef } : {}),
  };
}

/** A connector's report (a status enquiry's, a callback's event) with its outcome as the core keeps it. */
export const reportAnswer = <R extends PartnerReport<PartnerOutcome>>(r: R): Omit<R, 'outcome'> & { outcome: Outcome } => ({ ...r, outcome: answerOf(r.outcome) });
