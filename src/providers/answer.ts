// Owns the public answer of a partner's outcome (Hyperswitch's router owns the answer, its connectors'
// transformers the partner's shape): a connector, or an operation's sandbox, reports a payment's or a
// recharge's result typed, amounts in integer paise (MoneyResult); here alone it becomes the answer's
// own fields, by their public names (`txn_id`, `amount` and `commission` in INR, `utr`), in the order
// the answer shows them. The router applies it to everything a live connector reports, the sandbox
// connector to every sandbox answer. A verification's fields are already in our names and pass as they are.
import { paiseToInr } from '../money.js';
import type { FinalOutcome, MoneyResult, Outcome, PartnerFinal, PartnerOutcome, PartnerReport, PartnerResult } from './connector.js';

/** A payment's or a recharge's result fields, by their public names; an absent member leaves its field out. */
export function moneyFields(r: MoneyResult): Record<string, unknown> {
  return {
    ...(r.txnId !== undefined ? { txn_id: r.txnId } : {}),
    ...(r.amountPaise !== undefined ? { amount: paiseToInr(r.amountPaise) } : {}),
    ...(r.operator !== undefined ? { operator: r.operator } : {}),
    ...(r.utr !== undefined ? { utr: r.utr } : {}),
    ...(r.commissionPaise !== undefined ? { commission: paiseToInr(r.commissionPaise) } : {}),
  };
}

const fieldsOf = (r: PartnerResult) => ('money' in r ? moneyFields(r.money) : r.fields);

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
