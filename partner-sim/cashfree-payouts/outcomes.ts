// Owns the emulator's steering table: the lifecycle a transfer follows, chosen by the VPA's username
// (the part before `@`, up to the first `.` or `-`, case-insensitive), and the stages it passes through
// with their `status`, `status_code`, `status_description` and webhook event (PARTNERS.md §3.3, §3.4,
// §3.7). Status values and status codes are the documented ones [P]; descriptions are quoted where the
// docs give them and marked [G] where they do not. Every transfer answers RECEIVED at create ("async
// request by default"); each later stage follows the previous one after pendingMs.
//
//   username      stages after RECEIVED                                        webhooks
//   (anything)    SUCCESS/SENT_TO_BENEFICIARY (utr) → SUCCESS/COMPLETED        TRANSFER_SUCCESS, TRANSFER_ACKNOWLEDGED
//   pending       PENDING → SUCCESS/SENT_TO_BENEFICIARY → SUCCESS/COMPLETED    TRANSFER_SUCCESS, TRANSFER_ACKNOWLEDGED
//   pendingfail   PENDING → FAILED/IMPS_MODE_FAIL                              TRANSFER_FAILED
//   hold          PENDING, until POST /_sim/transfers/{id}/settle              —
//   failure       FAILED/IMPS_MODE_FAIL                                        TRANSFER_FAILED
//   invalid       FAILED/INVALID_BENE_VPA                                      TRANSFER_FAILED
//   reverse       SUCCESS/SENT_TO_BENEFICIARY (utr) → REVERSED/INVALID_ACCOUNT_FAIL   TRANSFER_SUCCESS, TRANSFER_REVERSED
//   rejected      REJECTED/BENE_BLACKLISTED                                    TRANSFER_REJECTED
//   velocity      REJECTED/VELOCITY_CHECK_FAILED                               TRANSFER_REJECTED
//   approval      APPROVAL_PENDING → QUEUED → SUCCESS/SENT_TO_BENEFICIARY → SUCCESS/COMPLETED
//                                                                               TRANSFER_APPROVED, TRANSFER_SUCCESS, TRANSFER_ACKNOWLEDGED
//   denied        APPROVAL_PENDING → MANUALLY_REJECTED                         TRANSFER_REJECTED
// Not steered by the username:
//   transfer_mode other than upi for a VPA   REJECTED/INVALID_MODE_FOR_PYID   TRANSFER_REJECTED
//   amount above the fund source balance     FAILED/INSUFFICIENT_BALANCE      TRANSFER_FAILED

export type TransferStatus = 'RECEIVED' | 'APPROVAL_PENDING' | 'QUEUED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'REJECTED' | 'REVERSED' | 'MANUALLY_REJECTED';

export type WebhookEvent = 'TRANSFER_SUCCESS' | 'TRANSFER_ACKNOWLEDGED' | 'TRANSFER_FAILED' | 'TRANSFER_REVERSED' | 'TRANSFER_REJECTED' | 'TRANSFER_APPROVED';

export interface Stage {
  status: TransferStatus;
  status_code: string;
  status_description: string;
  /** The webhook sent on entering this stage, if any. */
  event?: WebhookEvent;
  /** No later stage follows on its own, and nothing is held back behind it (out_of_order). */
  final?: boolean;
}

export const STAGES = {
  // [P] the standard-transfer-v2 sample, verbatim
  received: {
    status: 'RECEIVED',
    status_code: 'RECEIVED',
    status_description:
      'The transfer has been received by Cashfree successfully for further processing. You should use Check Status API response or Webhooks to know the terminal state of the transfer request.',
  },
  // [P] quoted fragments ("awaiting a final confirmation from the partner bank", "rely only on Check Status API response or Webhooks"); the joins are [G]
  pending: {
    status: 'PENDING',
    status_code: 'PENDING',
    status_description: 'The transfer is awaiting a final confirmation from the partner bank. You should rely only on Check Status API response or Webhooks to know the terminal state of the transfer request.',
  },
  // [G] status_code values for APPROVAL_PENDING / QUEUED and all descriptions below
  approvalPending: { status: 'APPROVAL_PENDING', status_code: 'APPROVAL_PENDING', status_description: 'The transfer is awaiting approval on the Cashfree dashboard.' },
  approved: { status: 'QUEUED', status_code: 'QUEUED', status_description: 'The transfer has been approved and is queued for processing.', event: 'TRANSFER_APPROVED' },
  // [P] SUCCESS + SENT_TO_BENEFICIARY is the TRANSFER_SUCCESS sample; TRANSFER_ACKNOWLEDGED follows with COMPLETED
  sent: {
    status: 'SUCCESS',
    status_code: 'SENT_TO_BENEFICIARY',
    status_description: 'The transfer amount has been debited and sent to the beneficiary bank. Credit confirmation from the beneficiary bank is awaited.',
    event: 'TRANSFER_SUCCESS',
  },
  completed: {
    status: 'SUCCESS',
    status_code: 'COMPLETED',
    status_description: 'The transfer is successful and the amount has been credited to the beneficiary account.',
    event: 'TRANSFER_ACKNOWLEDGED',
    final: true,
  },
  bankFail: { status: 'FAILED', status_code: 'IMPS_MODE_FAIL', status_description: 'The transfer failed at the partner bank. Please retry after some time.', event: 'TRANSFER_FAILED', final: true },
  vpaInvalid: { status: 'FAILED', status_code: 'INVALID_BENE_VPA', status_description: 'The beneficiary VPA is invalid or does not exist.', event: 'TRANSFER_FAILED', final: true },
  lowBalance: { status: 'FAILED', status_code: 'INSUFFICIENT_BALANCE', status_description: 'The fund source does not have sufficient balance to process the transfer.', event: 'TRANSFER_FAILED', final: true },
  reversed: {
    status: 'REVERSED',
    status_code: 'INVALID_ACCOUNT_FAIL',
    status_description: 'The beneficiary bank reversed the transfer as the beneficiary account is invalid. The amount has been credited back to the fund source.',
    event: 'TRANSFER_REVERSED',
    final: true,
  },
  blacklisted: { status: 'REJECTED', status_code: 'BENE_BLACKLISTED', status_description: 'The transfer was rejected as the beneficiary is blacklisted.', event: 'TRANSFER_REJECTED', final: true },
  velocity: { status: 'REJECTED', status_code: 'VELOCITY_CHECK_FAILED', status_description: 'The transfer was rejected as it breaches the velocity limits set for the beneficiary.', event: 'TRANSFER_REJECTED', final: true },
  modeMismatch: {
    status: 'REJECTED',
    status_code: 'INVALID_MODE_FOR_PYID',
    status_description: 'The transfer mode is not valid for the payment instrument of the beneficiary.',
    event: 'TRANSFER_REJECTED',
    final: true,
  },
  // [G] MANUALLY_REJECTED is [P-org] as a status; its status_code and the event (TRANSFER_REJECTED) are the emulator's
  manuallyRejected: {
    status: 'MANUALLY_REJECTED',
    status_code: 'MANUALLY_REJECTED',
    status_description: 'The transfer was rejected by the approver.',
    event: 'TRANSFER_REJECTED',
    final: true,
  },
} as const satisfies Record<string, Stage>;

export type StageName = keyof typeof STAGES;

export type Plan = 'success' | 'pending' | 'pendingfail' | 'hold' | 'failure' | 'invalid' | 'reverse' | 'rejected' | 'velocity' | 'approval' | 'denied' | 'mode_mismatch' | 'low_balance';

/** The stages after RECEIVED for each plan. */
export const PLANS: Readonly<Record<Plan, readonly StageName[]>> = {
  success: ['sent', 'completed'],
  pending: ['pending', 'sent', 'completed'],
  pendingfail: ['pending', 'bankFail'],
  hold: ['pending'],
  failure: ['bankFail'],
  invalid: ['vpaInvalid'],
  reverse: ['sent', 'reversed'],
  rejected: ['blacklisted'],
  velocity: ['velocity'],
  approval: ['approvalPending', 'approved', 'sent', 'completed'],
  denied: ['approvalPending', 'manuallyRejected'],
  mode_mismatch: ['modeMismatch'],
  low_balance: ['lowBalance'],
};

const MAGIC = new Set<Plan>(['pending', 'pendingfail', 'hold', 'failure', 'invalid', 'reverse', 'rejected', 'velocity', 'approval', 'denied']);

export function planFor(vpa: string): Plan {
  const username = vpa.slice(0, vpa.indexOf('@')).toLowerCase().split(/[.-]/)[0] ?? '';
  return MAGIC.has(username as Plan) ? (username as Plan) : 'success';
}

/** Statuses that end a transfer; SUCCESS is not among them (it can still become REVERSED). */
export const TERMINAL: ReadonlySet<TransferStatus> = new Set(['FAILED', 'REJECTED', 'REVERSED', 'MANUALLY_REJECTED']);

/** Statuses that give the debited amount back to the fund source. */
export const REFUNDS: ReadonlySet<TransferStatus> = TERMINAL;
