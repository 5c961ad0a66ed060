// Owns the RazorpayX entities as the emulator emits them (contact, fund_account of a VPA or a bank account,
// payout), their ids and their JSON views, with field names exactly as in the docs samples (PARTNERS.md
// §2.2–2.4, §2.9).
import { randomBase62, randomDigits } from '../../shared/ids.js';

export type Notes = Record<string, string>;

export interface Contact {
  id: string;
  entity: 'contact';
  name: string;
  contact: string | null;
  email: string | null;
  type: string | null;
  reference_id: string | null;
  batch_id: null;
  active: true;
  notes: Notes;
  created_at: number;
}

export interface FundAccount {
  id: string;
  entity: 'fund_account';
  contact_id: string;
  account_type: 'vpa';
  vpa: { username: string; handle: string; address: string };
  active: true;
  batch_id: null;
  created_at: number;
}

/** A bank account fund account [P api/x/fund-accounts/create/bank-account.md]; only validations use one here. */
export interface BankFundAccount {
  id: string;
  entity: 'fund_account';
  contact_id: string;
  account_type: 'bank_account';
  bank_account: { ifsc: string; bank_name: string | null; name: string; account_number: string; notes: [] };
  active: true;
  batch_id: null;
  created_at: number;
}

export type PayoutStatus = 'pending' | 'queued' | 'scheduled' | 'processing' | 'processed' | 'reversed' | 'cancelled' | 'rejected' | 'failed';

export interface StatusDetails {
  description: string;
  source: 'gateway' | 'beneficiary_bank' | 'business' | 'internal';
  reason: string;
}

export interface Payout {
  id: string;
  entity: 'payout';
  fund_account_id: string;
  amount: number;
  currency: 'INR';
  notes: Notes;
  fees: number;
  tax: number;
  status: PayoutStatus;
  purpose: string;
  utr: string | null;
  mode: 'UPI';
  reference_id: string | null;
  narration: string;
  debit_account_number: string;
  batch_id: null;
  /** Deprecated [P] but still in the 2025 payout.processed sample: null, or the failure text. */
  failure_reason: string | null;
  status_details: StatusDetails | null;
  created_at: number;
  fee_type: '';
  /** Deprecated [P]; present in the 2025 sample with "NA" codes when there is no error. */
  error: { source: string | null; reason: string | null; description: string | null; code: string; step: string; metadata: Record<string, never> };
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** Razorpay ids are a prefix and 14 base62 characters (`pout_R7ambiUdUvg6AD`). */
export const newRzpId = (prefix: 'cont' | 'fa' | 'pout' | 'fav'): string => `${prefix}_${randomBase62(14)}`;

/** UPI UTRs (RRNs) are 12 digits, as in the UPI payout.processed sample (`523223155921`). */
export const newUtr = (): string => randomDigits(12);

export const newEventId = (): string => randomBase62(14);

export function vpaParts(address: string): FundAccount['vpa'] {
  const at = address.indexOf('@');
  return { username: address.slice(0, at), handle: address.slice(at + 1), address };
}

/** What the deprecated `error` object holds for a given status_details (failed/reversed carry the reason). */
export function errorView(status: PayoutStatus, d: StatusDetails | null): Payout['error'] {
  if ((status === 'failed' || status === 'reversed') && d) {
    return { source: d.source, reason: d.reason, description: d.description, code: 'BAD_REQUEST_ERROR', step: 'NA', metadata: {} };
  }
  return { source: null, reason: null, description: null, code: 'NA', step: 'NA', metadata: {} };
}
