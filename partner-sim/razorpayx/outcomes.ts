// Owns the emulator's steering table: which lifecycle a payout follows, chosen by the VPA's username
// (the part before `@`, up to the first `.` or `-`, case-insensitive), and the status_details texts.
// Reasons are the documented `status_details.reason` values [P §2.7]; descriptions quoted from the docs
// are marked [P], the others are [G] (plausible wording).
//
//   username     create answers   then (each step after pendingMs)          webhooks
//   (anything)   processing       → processed (utr set)                     initiated, processed
//   pending      processing       stays processing until /_sim settle       initiated
//   failure      processing       → failed (beneficiary_bank_rejected)      initiated, failed
//   invalid      failed           (synchronously: beneficiary_vpa_invalid)  failed
//   reverse      processing       → processed → reversed (bank offline)     initiated, processed, reversed
//   rejected     pending          → rejected (approval workflow)            pending, rejected
//   queued       queued           stays queued (bank down) until cancel     queued (, updated on cancel)
import type { PayoutStatus, StatusDetails } from './entities.js';

export type Plan = 'processed' | 'held' | 'failed' | 'invalid' | 'reversed' | 'rejected' | 'queued';

export const MAGIC_USERNAMES: Readonly<Record<string, Plan>> = {
  pending: 'held',
  failure: 'failed',
  invalid: 'invalid',
  reverse: 'reversed',
  rejected: 'rejected',
  queued: 'queued',
};

export function planFor(address: string): Plan {
  const username = address.slice(0, address.indexOf('@')).toLowerCase();
  return MAGIC_USERNAMES[username.split(/[.-]/)[0] ?? ''] ?? 'processed';
}

export const DETAILS = {
  processing: { reason: 'payout_bank_processing', source: 'gateway', description: 'Payout is being processed by our partner bank. Please check the final status after some time.' },
  confirmationPending: {
    reason: 'beneficiary_bank_confirmation_pending',
    source: 'beneficiary_bank',
    description: 'Payout is awaiting confirmation from the beneficiary bank. UPI payouts can take up to T+3 working days to settle.',
  },
  // [P] the UPI payout.processed sample
  processed: { reason: 'payout_processed', source: 'beneficiary_bank', description: 'Payout is processed and the money has been credited into the beneficiary account.' },
  // [P] the create sample
  lowBalance: { reason: 'low_balance', source: 'business', description: 'Payout is queued as there is insufficient balance in your business account to process the payout' },
  bankDown: { reason: 'beneficiary_bank_down', source: 'beneficiary_bank', description: 'Payout is queued as the beneficiary bank is down. It will be processed once the bank is back up.' },
  pendingApproval: { reason: 'pending_approval', source: 'business', description: 'Payout is pending approval.' },
  // [P] errors/x/payout-status-details
  vpaInvalid: { reason: 'beneficiary_vpa_invalid', source: 'business', description: 'UPI validation failed. If the UPI ID is valid, please retry after sometime.' },
  bankRejected: { reason: 'beneficiary_bank_rejected', source: 'beneficiary_bank', description: 'Payout failed as the beneficiary bank rejected the transaction. Please retry after some time.' },
  // [P] the payout.reversed sample
  bankOffline: { reason: 'beneficiary_bank_offline', source: 'beneficiary_bank', description: 'Beneficiary bank systems are offline, please retry after 30 min' },
  // [G] no reason is documented for rejected / cancelled; these are the emulator's
  rejected: { reason: 'payout_rejected', source: 'business', description: 'Payout was rejected by the approver.' },
  cancelled: { reason: 'payout_cancelled', source: 'business', description: 'Payout was cancelled by the business.' },
} as const satisfies Record<string, StatusDetails>;

/** Statuses after which Razorpay sends nothing more, except a processed → reversed. */
export const FINAL: ReadonlySet<PayoutStatus> = new Set(['processed', 'reversed', 'failed', 'rejected', 'cancelled']);

/** The documented event for entering each status [P §2.9]; `cancelled` has no event of its own ([G] payout.updated). */
export const EVENT_FOR: Readonly<Record<PayoutStatus, string>> = {
  pending: 'payout.pending',
  queued: 'payout.queued',
  scheduled: 'payout.updated',
  processing: 'payout.initiated',
  processed: 'payout.processed',
  reversed: 'payout.reversed',
  failed: 'payout.failed',
  rejected: 'payout.rejected',
  cancelled: 'payout.updated',
};
