// Owns the webhooks of the setu-recharge connector (PARTNERS.md §4.6). Setu documents no signature and
// no auth header for them [G], and appends its own routes to the one base URL it is given
// (`/payment/status`, `/payment/reversal`, `/wallet/low-balance`, `/wallet/topup`; its newer page spells the
// wallet ones `low_balance` / `top_up`). So:
//   - the base URL given to Setu carries a secret path segment (../setu/webhook.ts): a call without it is a
//     401 and changes nothing. (Keep the URL as secret as a key: HTTPS only, and an IP allow-list at the
//     edge where Setu publishes its addresses.)
//   - a payment status webhook is only a trigger: its body names a `transactionRefId`, which Setu's page
//     calls the "Transaction reference ID from the original recharge request" (sample `TXN123456789`). Both
//     readings are accepted: the reference Setu's answer gave (`CYJSTPM…`, linked to our transaction when
//     Setu first answered) and our request's own refId (left out, so Setu's default: our paymentRefId,
//     which maps back to our id). The status API (authenticated) is asked, and ITS answer is applied. A
//     forged "Successful" changes nothing the status API does not confirm.
//   - a reversal (REVERSED) is signalled only by webhook — the status API keeps saying Successful — so it
//     cannot be confirmed there. It un-pays a recharge (the client's debit and our commission come back),
//     so it is applied only when (1) the secret segment matches, (2) the reference is one of our
//     recharges, (3) the status API says that very recharge (same reference) is Successful (or
//     REVERSED), and (4) the webhook's amount and mobile number are that recharge's.
//   - Setu tries a webhook only for about a minute and offers no replay (PARTNERS.md §9.4), so a reversal
//     that cannot be confirmed at once — the recharge still Processing, or the status API unreachable —
//     is parked in the partner sessions and acknowledged (202), and the core is asked to recheck the
//     transaction: the status enquiry then confirms it (the connector's status() applies a parked
//     reversal once the recharge shows Successful with the same amount and mobile number).
//   - a webhook claiming a final state the status API does not show yet is answered 409 (Setu retries);
//     an unknown reference is answered 404 (Setu retries: a webhook can outrun the answer that links it);
//     wallet webhooks are logged and acknowledged.
// Repeats are harmless: settlement applies a final state once and a reversal once.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { PartnerOutcome, PartnerReport, PartnerRoute, Reversal } from '../connector.js';
import { paymentRefIdOf, type Known } from '../setu/transformers.js';
import { confirm, guardSecret } from '../setu/webhook.js';
import { reversalOf, rupeeStringToPaise, statusOf, type SetuPaymentWebhook, type SetuRechargeData } from './transformers.js';

export interface WebhookDeps {
  name: string;
  secret: string;
  /** Our transaction behind Setu's transaction reference, when we have linked them. */
  txnOfRef(transactionRefId: string): Promise<string | undefined>;
  known(txnId: string): Promise<Known | null>;
  enquire(txnId: string): Promise<SetuRechargeData | null>;
  reportOf(d: SetuRechargeData, known: Known, reversal?: Reversal): Promise<PartnerReport<PartnerOutcome>>;
  report(r: PartnerReport<PartnerOutcome>): Promise<void>;
  /** Keeps a reversal to confirm later, and has the core recheck the transaction soon. */
  park(txnId: string, parked: ParkedReversal): Promise<void>;
}

/** A REVERSED webhook not yet confirmed by the status API: what it said. */
export interface ParkedReversal {
  reason: string;
  /** ISO 8601. */
  at: string;
  amountPaise: number;
  mobile: string | null;
}

/** Whether the status API's recharge is the one a parked reversal names, and is one a reversal can undo. */
export const confirms = (p: ParkedReversal, now: SetuRechargeData): boolean =>
  statusOf(now.status) === 'success' && now.amount === p.amountPaise && (p.mobile === null || now.details?.mobile_number === undefined || now.details.mobile_number === p.mobile);

type Req = FastifyRequest<{ Params: { secret: string } }>;

/** POST /partners/<name>/webhooks/<secret>/…: the payment status and reversal, and the wallet notifications. */
export function webhookRoutes(d: WebhookDeps): PartnerRoute[] {
  const base = '/webhooks/:secret';
  const guard = (req: Req) => guardSecret(req.params.secret, d.secret, 'Setu');
  const post = (path: string, handler: (req: Req, reply: FastifyReply) => Promise<unknown>): PartnerRoute => ({ method: 'POST', path, handler });

  const status = post(`${base}/payment/status`, async (req, reply) => {
    guard(req);
    const { known, now } = await resolve(req, d);
    if (await apply(d, now, known)) return answer(reply, 200, { received: true, applied: 'status' });
    // The webhook claims a final state the status API does not show (yet): 409, so Setu retries it.
    const claimed = statusOf((req.body as SetuPaymentWebhook).status) !== 'pending';
    return answer(reply, claimed ? 409 : 200, { received: !claimed, applied: false, reason: 'the recharge is not final at Setu yet' });
  });

  const reversal = post(`${base}/payment/reversal`, async (req, reply) => {
    guard(req);
    const w = (req.body ?? {}) as SetuPaymentWebhook;
    if (w.status !== 'REVERSED') return answer(reply, 200, { received: true, applied: false, reason: 'not a REVERSED event' });
    const { txnId, known } = await linked(req, d);
    const paise = rupeeStringToPaise(w.amount);
    if (paise === null || (known.amountPaise !== null && paise !== known.amountPaise)) {
      req.log.warn({ partner: d.name, txn_id: txnId, field: 'amount' }, 'Setu reversal webhook disagrees with the recharge: not applied');
      return answer(reply, 200, { received: true, applied: false, reason: "the amount is not the recharge's" });
    }
    const rev = reversalOf(w);
    const park = async (why: string) => {
      await d.park(txnId, { reason: rev.reason, at: rev.at.toISOString(), amountPaise: paise, mobile: typeof w.mobile_number === 'string' ? w.mobile_number : null });
      req.log.warn({ partner: d.name, txn_id: txnId, why }, 'Setu reversal parked until the status API confirms it');
      return answer(reply, 202, { received: true, applied: false, parked: true, reason: why });
    };
    let now: SetuRechargeData;
    try {
      now = await current(d, txnId, req);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'partner_failed' || err.code === 'partner_timeout')) return park('the status API could not be asked; confirmed later');
      throw err;
    }
    const status = statusOf(now.status);
    if (status === 'pending') return park('the recharge is not final at Setu yet; confirmed later');
    if (status === 'failed') {
      // The status API says it failed: that is applied, not the reversal (nothing was paid to undo).
      await apply(d, now, known);
      return answer(reply, 200, { received: true, applied: 'status', reason: 'the status API reports a failure' });
    }
    const parked: ParkedReversal = { reason: rev.reason, at: rev.at.toISOString(), amountPaise: paise, mobile: typeof w.mobile_number === 'string' ? w.mobile_number : null };
    if (!confirms(parked, now)) {
      req.log.warn({ partner: d.name, txn_id: txnId, field: 'amount or mobile number' }, 'Setu reversal webhook disagrees with the recharge: not applied');
      return answer(reply, 200, { received: true, applied: false, reason: "the amount or mobile number is not the recharge's" });
    }
    await d.report(await d.reportOf(now, known, rev));
    return answer(reply, 200, { received: true, applied: 'reversal' });
  });

  const wallet = ['/wallet/low-balance', '/wallet/low_balance', '/wallet/topup', '/wallet/top_up'].map((route) =>
    post(`${base}${route}`, async (req, reply) => {
      guard(req);
      const body = req.body as { event?: unknown; balance?: unknown; currentBalance?: unknown };
      req.log.warn({ partner: d.name, event: body?.event, balance: body?.balance ?? body?.currentBalance }, 'Setu wallet notification');
      return answer(reply, 200, { received: true });
    }),
  );
  return [status, reversal, ...wallet];
}

const answer = (reply: FastifyReply, code: number, body: Record<string, unknown>) => reply.code(code).send(body);

/** The webhook's transaction, and what Setu's status API says of it now. */
async function resolve(req: Req, d: WebhookDeps): Promise<{ txnId: string; known: Known; now: SetuRechargeData }> {
  const { txnId, known } = await linked(req, d);
  return { txnId, known, now: await current(d, txnId, req) };
}

/** Our recharge behind the webhook's Setu reference; 404 (Setu retries) while we have not linked it. */
async function linked(req: Req, d: WebhookDeps): Promise<{ txnId: string; known: Known }> {
  const w = req.body as SetuPaymentWebhook | undefined;
  const ref = typeof w?.transactionRefId === 'string' ? w.transactionRefId.trim() : '';
  if (!ref) throw ApiError.validation([{ field: 'transactionRefId', message: 'transactionRefId is required' }]);
  const txnId = await d.txnOfRef(ref);
  const known = txnId ? await d.known(txnId) : null;
  if (!txnId || !known) throw new ApiError('not_found', `No recharge of this partner has Setu reference ${ref.slice(0, 40)} (yet)`);
  return { txnId, known };
}

/**
 * What Setu's status API says of the recharge now; it must be the webhook's reference: the one Setu's answer
 * gave, or our request's own (refId, which is our paymentRefId) — Setu's page allows either reading.
 */
async function current(d: WebhookDeps, txnId: string, req: Req): Promise<SetuRechargeData> {
  const ref = String((req.body as SetuPaymentWebhook).transactionRefId).trim();
  const now = await confirm(() => d.enquire(txnId));
  if (!now || (now.transactionRefId !== ref && ref !== paymentRefIdOf(txnId))) throw new ApiError('not_found', `Setu's status API does not show reference ${ref.slice(0, 40)} for that recharge`);
  return now;
}

/** Applies the status API's answer (not the webhook's); false while it is still pending. */
async function apply(d: WebhookDeps, now: SetuRechargeData, known: Known): Promise<boolean> {
  const r = await d.reportOf(now, known);
  if (r.outcome.status === 'pending') return false;
  await d.report(r);
  return true;
}
