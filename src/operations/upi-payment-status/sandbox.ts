// Owns UPI payment's sandbox answer (CONTRACT §7): failure@sandbox is declined, pending@sandbox and
// pendingfail@sandbox stay pending and then succeed or fail, any other VPA is paid.
import { randomDigits } from '../../ids.js';
import { paiseToInr } from '../../money.js';
import type { FinalOutcome, OperationRequest, Outcome } from '../../providers/connector.js';
import { sandboxPending } from '../../providers/sandbox/index.js';

export async function upiPaymentSandbox(req: OperationRequest, opts: { pendingMs: number }): Promise<Outcome> {
  if (req.operation !== 'upi-payment-status') throw new Error(`UPI payment cannot answer ${req.operation}`);
  const vpa = req.vpa.toLowerCase();
  const base = { txn_id: req.txnId, amount: paiseToInr(req.amountPaise) };
  const success: FinalOutcome = { status: 'success', message: 'Payment successful', fields: { ...base, utr: randomDigits(12) } };
  const failed: FinalOutcome = { status: 'failed', message: "Payment declined by the payer's bank", fields: { ...base, utr: randomDigits(12) } };
  if (vpa === 'failure@sandbox') return failed;
  if (vpa === 'pending@sandbox' || vpa === 'pendingfail@sandbox') {
    return sandboxPending('Payment initiated; awaiting confirmation from the bank', { ...base, utr: null }, vpa === 'pending@sandbox' ? success : failed, opts.pendingMs);
  }
  return success;
}
