// Owns the webhooks of the setu-dth connector (PARTNERS.md §4.7: `{traceId, timeStamp, event, data | error}`,
// BILL_FETCH and BILL_PAY). Setu documents no signature for them [G], so the same rules as the prepaid
// connector's (../setu/webhook.ts):
//   - the URL given to Setu carries a secret path segment (BBPS posts to the URL as given); a call without
//     it is a 401 and changes nothing;
//   - a BILL_PAY is only a trigger: its payment reference names our transaction, whose stored refId must
//     be the webhook's; then …/payment/response (authenticated) is asked and ITS answer applied — a
//     Credit_Adjustment (the refund) included, since BBPS shows it there too. A webhook that claims a
//     final state the status API does not show yet is answered 409, so Setu retries it;
//   - BILL_FETCH and other events are acknowledged and ignored (the connector polls its own fetches).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { PartnerReport } from '../connector.js';
import { txnIdOfPaymentRef, type Known } from '../setu/transformers.js';
import { confirm, guardSecret } from '../setu/webhook.js';
import { statusOf, type BbpsPayment, type BbpsWebhook, type StoredPayment } from './transformers.js';

export interface WebhookDeps {
  name: string;
  secret: string;
  stored(txnId: string): Promise<StoredPayment | undefined>;
  payment(refId: string): Promise<BbpsPayment | null>;
  reportOf(p: BbpsPayment, known: Known): PartnerReport;
  report(r: PartnerReport): Promise<void>;
}

export function registerWebhooks(app: FastifyInstance, d: WebhookDeps): void {
  app.post(`/partners/${d.name}/webhooks/:secret`, { schema: { hide: true } }, async (req: FastifyRequest<{ Params: { secret: string } }>, reply) => {
    guardSecret(req.params.secret, d.secret, 'Setu BBPS');
    const w = (req.body ?? {}) as BbpsWebhook;
    if (w.event !== 'BILL_PAY') return reply.send({ received: true, applied: false });
    const refId = typeof w.data?.refId === 'string' ? w.data.refId : '';
    const txnId = txnIdOfPaymentRef(w.data?.paymentDetails?.paymentRefId);
    const stored = txnId ? await d.stored(txnId) : undefined;
    if (!txnId || !stored || stored.refId !== refId) throw new ApiError('not_found', `No DTH recharge of this partner has BBPS refId ${refId.slice(0, 40)}`);
    const now = await confirm(() => d.payment(refId));
    if (!now) throw new ApiError('not_found', `Setu BBPS shows no payment for refId ${refId.slice(0, 40)}`);
    const r = d.reportOf(now, { txnId, amountPaise: stored.amountPaise, commissionPaise: stored.commissionPaise });
    if (r.outcome.status === 'pending') {
      const claimed = statusOf(w.data?.status) !== 'pending';
      return reply.code(claimed ? 409 : 200).send({ received: !claimed, applied: false, reason: 'the payment is not final at Setu BBPS yet' });
    }
    await d.report(r);
    return reply.send({ received: true, applied: r.reversal ? 'reversal' : 'status' });
  });
}
