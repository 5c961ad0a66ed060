// Owns the webhooks of the setu-dth connector (PARTNERS.md §4.7: `{traceId, timeStamp, event, data | error}`,
// BILL_FETCH and BILL_PAY). Setu documents no signature for them [G], so the same rules as the prepaid
// connector's (../setu/webhook.ts):
//   - the URL given to Setu carries a secret path segment (BBPS posts to the URL as given); a call without
//     it is a 401 and changes nothing;
//   - a BILL_PAY is only a trigger: its payment reference names our transaction, whose stored refId must
//     be the webhook's; then …/payment/response (authenticated) is asked and ITS answer applied. A webhook
//     that claims a final state the status API does not show yet is answered 409, so Setu retries it;
//   - a refund (Credit_Adjustment) is the exception: Setu documents it in the BILL_PAY webhook only (the
//     payment/response enum has no refund), so it is applied from the webhook — as a reversal through the
//     settlement's reversal path, exactly once however often Setu retries — when it matches what we sent
//     (refId, paymentRefId, amount) and payment/response shows that payment as a Success (or refunded);
//     anything else is refused. Since Setu signs nothing, the secret URL is what stands behind a refund;
//   - BILL_FETCH and other events are acknowledged and ignored (the connector polls its own fetches).
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { PartnerOutcome, PartnerReport, PartnerRoute } from '../connector.js';
import { txnIdOfPaymentRef, type Known } from '../setu/transformers.js';
import { confirm, guardSecret } from '../setu/webhook.js';
import { reversalOf, statusOf, type BbpsPayment, type BbpsWebhook, type StoredPayment } from './transformers.js';

export interface WebhookDeps {
  secret: string;
  stored(txnId: string): Promise<StoredPayment | undefined>;
  payment(refId: string): Promise<BbpsPayment | null>;
  reportOf(p: BbpsPayment, known: Known): PartnerReport<PartnerOutcome>;
  report(r: PartnerReport<PartnerOutcome>): Promise<void>;
}

/** POST /partners/<name>/webhooks/<secret>. */
export function webhookRoute(d: WebhookDeps): PartnerRoute {
  return { method: 'POST', path: '/webhooks/:secret', handler: async (req: FastifyRequest<{ Params: { secret: string } }>, reply) => {
    guardSecret(req.params.secret, d.secret, 'Setu BBPS');
    const w = (req.body ?? {}) as BbpsWebhook;
    if (w.event !== 'BILL_PAY') return reply.send({ received: true, applied: false });
    const refId = typeof w.data?.refId === 'string' ? w.data.refId : '';
    const txnId = txnIdOfPaymentRef(w.data?.paymentDetails?.paymentRefId);
    const stored = txnId ? await d.stored(txnId) : undefined;
    if (!txnId || !stored || stored.refId !== refId) throw new ApiError('not_found', `No DTH recharge of this partner has BBPS refId ${refId.slice(0, 40)}`);
    const now = await confirm(() => d.payment(refId));
    if (!now) throw new ApiError('not_found', `Setu BBPS shows no payment for refId ${refId.slice(0, 40)}`);
    const known = { txnId, amountPaise: stored.amountPaise, commissionPaise: stored.commissionPaise };
    if (w.data?.status === 'Credit_Adjustment') {
      const { code, body } = await refund(d, w.data, now, stored, known);
      return reply.code(code).send(body);
    }
    const r = d.reportOf(now, known);
    if (r.outcome.status === 'pending') {
      const claimed = statusOf(w.data?.status) !== 'pending';
      return reply.code(claimed ? 409 : 200).send({ received: !claimed, applied: false, reason: 'the payment is not final at Setu BBPS yet' });
    }
    await d.report(r);
    return reply.send({ received: true, applied: r.reversal ? 'reversal' : 'status' });
  } };
}

/**
 * A BILL_PAY Credit_Adjustment: the refund of a payment we made. Applied (a reversal of the success) only
 * when the webhook's payment is ours to the paisa and payment/response shows it paid; otherwise a 409
 * (Setu retries; a forged or premature refund changes nothing).
 */
async function refund(d: WebhookDeps, data: BbpsPayment, now: BbpsPayment, stored: StoredPayment, known: Known): Promise<{ code: number; body: Record<string, unknown> }> {
  const refused = (reason: string) => ({ code: 409, body: { received: false, applied: false, reason } });
  const amount = data.paymentDetails?.amount;
  if (amount !== stored.body.paymentDetails.amount) return refused('the refund does not name the amount Sangam paid');
  if (now.status !== 'Success' && now.status !== 'Credit_Adjustment') return refused(`Setu BBPS shows this payment as ${String(now.status)}, not paid: a refund cannot apply`);
  if (typeof data.transactionId === 'string' && typeof now.transactionId === 'string' && data.transactionId !== now.transactionId) return refused('the refund names another BBPS transaction than payment/response shows');
  const r = d.reportOf({ ...now, status: 'Credit_Adjustment', failureReason: data.failureReason ?? now.failureReason }, known);
  await d.report({ ...r, reversal: r.reversal ?? reversalOf({ status: 'Credit_Adjustment' })! });
  return { code: 200, body: { received: true, applied: 'reversal' } };
}
