// Owns the emulator's steering table: the lifecycle a recharge follows, chosen by the last four digits of
// the number being recharged (the `Mobile Number` bill parameter, not `customer.mobile`). 0001 and 0002 agree
// with Sangam's own sandbox (CONTRACT §7). Each later step waits `pendingMs`.
//
//   suffix   /recharge/request answers   then                                       webhooks
//   (other)  Successful (operatorRefId)  —                                          payment/status Successful
//   0001     Failure (error set)         —                                          payment/status Failure
//   0002     Processing                  → Successful                               payment/status Successful
//   0003     Processing                  → Failure                                  payment/status Failure
//   0004     Successful                  → reversed (status API still "Successful") payment/status, payment/reversal REVERSED
//   0005     Processing                  stays until POST /_sim/recharges/{paymentRefId}/settle
//
// [P] a reversal is signalled only by the webhook `status: "REVERSED"` (§4.3), so /recharge/status keeps
// answering `Successful` after it; /_sim/recharges shows `reversed: true`.
export type Plan = 'success' | 'failure' | 'pending_success' | 'pending_failure' | 'reversal' | 'held';

export const MAGIC_SUFFIXES: Readonly<Record<string, Plan>> = {
  '0001': 'failure',
  '0002': 'pending_success',
  '0003': 'pending_failure',
  '0004': 'reversal',
  '0005': 'held',
};

export function planFor(mobile: string): Plan {
  return MAGIC_SUFFIXES[mobile.slice(-4)] ?? 'success';
}

export interface RechargeError {
  code: string;
  message: string;
  failureReason: string;
}

/** [P] the two documented validation failures; [G] the others, in the same `{code, message, failureReason}` form. */
export const BUSINESS_ERRORS = {
  invalidAmount: { code: '2', message: 'Invalid Amount.', failureReason: 'Invalid Amount' },
  nonPositive: { code: '4', message: 'Amount Less Or Equalto Zero', failureReason: 'Amount Less Or Equalto Zero' },
  lowWallet: { code: '6', message: 'Insufficient balance in wallet', failureReason: 'Insufficient Balance' },
  operatorFailure: { code: '12', message: 'Recharge failed at operator end', failureReason: 'Operator Failure' },
} as const satisfies Record<string, RechargeError>;

/** [G] the amounts an operator accepts: whole rupees from ₹10 to ₹10,000. */
export function amountError(amountPaise: number): RechargeError | null {
  if (amountPaise <= 0) return BUSINESS_ERRORS.nonPositive;
  if (amountPaise % 100 !== 0 || amountPaise < 1000 || amountPaise > 1_000_000) return BUSINESS_ERRORS.invalidAmount;
  return null;
}
