// Owns UPI payment's sandbox answer (CONTRACT §7): failure@sandbox is declined, pending@sandbox and
// pendingfail@sandbox stay pending and then succeed or fail, any other VPA is paid.
import { randomDigits } from '../../ids.js';
import type { OperationRequest, PartnerFinal, PartnerOutcome } from '../../providers/connector.js';
import { sandboxPending } from '../../providers/sandbox/index.js';

export async function upiPaymentSandbox(req: OperationRequest, opts: { pendingMs: number }): Promise<PartnerOutcome> {
  if (req.operation !== 'upi-payment-status') throw new Error(`UPI payment cannot answer ${req.operation}`);
  const vpa = req.vpa.toLowerCase();
  const base = { txnId: req.txnId, amountPaise: req.amountPaise };
  const success: PartnerFinal = { status: 'success', message: 'Payment successful', money: { ...base, utr: randomDigits(12) } };
  const failed: PartnerFinal = { status: 'failed', message: "Payment declined by the payer's bank", money: { ...base, utr: randomDigits(12) } };
  if (vpa === 'failure@sandbox') return failed;
  if (vpa === 'pending@sandbox' || vpa === 'pendingfail@sandbox') {
    return sandboxPending('Payment initiated; awaiting confirmation from the bank', { money: { ...base, utr: null } }, vpa === 'pending@sandbox' ? success : failed, opts.pendingMs);
  }
  return success;
}
