// Owns the connector of kind `sangam`: Sangam's own partner-network protocol, which the simulator
// (`sangam partner-sim`) speaks so that live mode runs on one machine, over the shared partner transport
// (partner-http.ts: keep-alive, up to 64 connections, per-operation deadlines). Failures are classified
// by what the partner may have done: not reached, refused (4xx), or "unavailable, retry" (503) →
// PartnerError (nothing happened; safe to fail over); connect timeout → PartnerError('timeout'); no answer after the request was sent, or any other
// 5xx → NoAnswer with a pending Outcome (the money may have moved: reconciliation asks this partner).
// Callbacks are Standard Webhooks signed with the partner secret (SANGAM_PARTNER_SECRET; a stale
// timestamp, over 5 minutes, fails); status enquiries are GET /v1/transactions/{client_ref}.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  CallbackRefused,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type Outcome,
  type OperationRequest,
  type OperatorLookup,
  type RechargePlan,
  type PartnerContext,
  type PartnerEvent,
  type PartnerReport,
  type TxRef,
} from '../connector.js';
import { enquiry, PartnerHttp, Unanswered, Unsent, type PartnerAnswer as Answer } from '../partner-http.js';
import { LOOKUP_PATH, PARTNER_PATHS, partnerStatusPath, PLANS_PATH, type PartnerAnswer, type PartnerCallback, type WireLookup, type WirePlan } from '../../../shared/protocol.js';
import { amountsOf, fieldsFrom, OP_OF_SLUG, outcomeFrom, wireBody, type Amounts } from './transformers.js';

/** A usable answer: a JSON object. */
const answerOf = (a: Answer): PartnerAnswer | null => (a.json && typeof a.json === 'object' ? (a.json as PartnerAnswer) : null);

export class SangamConnector implements Connector {
  readonly serves = Object.keys(OP_OF_SLUG) as Connector['serves'];
  /** The simulator calls back after its --pending-ms (CONTRACT §8, default 5 s); 30 s leaves room for latency and a late callback. */
  readonly expectedFinalS = 30;
  private http: PartnerHttp;
  private verifier: Webhook;

  constructor(private ctx: PartnerContext) {
    const secret = ctx.vars.SECRET;
    if (!secret) throw new Error(`partner ${ctx.name} (kind sangam) needs SANGAM_PARTNER_SECRET (its callbacks are verified with it)`);
    this.verifier = new Webhook(secret);
    const connectMs = Math.min(5000, ...Object.keys(OP_OF_SLUG).map((op) => ctx.timeoutFor(op as OperationRequest['operation'])));
    this.http = new PartnerHttp({
      baseUrl: ctx.url.replace(/\/+$/, ''),
      partner: 'The partner network',
      connectTimeoutMs: connectMs,
      connections: 64,
      // An aadhaar download carries the XML and a photo: a few hundred kilobytes at most.
      maxBodyBytes: 8 * 1024 * 1024,
      answerIs: 'any answer it documents',
    });
  }

  async execute(req: OperationRequest): Promise<Outcome> {
    const op = OP_OF_SLUG[req.operation];
    const amounts = amountsOf(req);
    const noAnswer = (why: string) => new NoAnswer({ status: 'pending', message: why, fields: fieldsFrom(op, { client_ref: req.txnId, status: 'PENDING', partner_ref: '', message: '' }, amounts) });
    let a: Answer;
    try {
      a = await this.http.call('POST', PARTNER_PATHS[op], this.ctx.timeoutFor(req.operation), {}, JSON.stringify({ client_ref: req.txnId, callback_url: this.ctx.webhookUrl, ...wireBody(req) }));
    } catch (err) {
      if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      // Sent, but no answer: the partner may have acted. Pending; the status enquiry settles it.
      if (err instanceof Unanswered) throw noAnswer('The partner network has not answered yet; the outcome will follow');
      throw err;
    }
    if (a.status >= 400) {
      const safe = a.status < 500 || a.status === 503;
      if (!safe) throw noAnswer(`The partner network failed while handling the request (HTTP ${a.status}); the outcome will follow`);
      throw new PartnerError('unavailable', `The partner network refused the request (HTTP ${a.status}); nothing was executed or debited`);
    }
    const answer = answerOf(a);
    if (!answer) throw noAnswer('The partner network has not answered yet; the outcome will follow');
    return { ...outcomeFrom(op, answer, amounts), ...(answer.partner_ref ? { partnerRef: answer.partner_ref } : {}) };
  }

  async lookupOperator(mobile: string): Promise<OperatorLookup> {
    const w = await this.get<WireLookup>(`${LOOKUP_PATH}?mobile=${encodeURIComponent(mobile)}`);
    return { operator: w.operator, circle: w.circle, ported: w.ported === true };
  }

  async plans(operator: string, circle: string): Promise<RechargePlan[]> {
    const list = await this.get<WirePlan[]>(`${PLANS_PATH}?operator=${encodeURIComponent(operator)}&circle=${encodeURIComponent(circle)}`);
    const categories = new Set<string>(['unlimited', 'data', 'talktime', 'annual']);
    return list.map((p) => ({
      amountPaise: p.amount_paise,
      validity: p.validity,
      description: p.description,
      category: (categories.has(p.category) ? p.category : 'other') as RechargePlan['category'],
    }));
  }

  /** A read (nothing to execute): any failure is a PartnerError. */
  private async get<T>(path: string): Promise<T> {
    let a: Answer;
    try {
      a = await this.http.call('GET', path, this.ctx.timeoutFor('recharge-commission'), {});
    } catch (err) {
      if (!(err instanceof Unsent || err instanceof Unanswered)) throw err;
      throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', 'The partner network did not answer the lookup');
    }
    if (a.status >= 400) throw new PartnerError('unavailable', `The partner network refused the lookup (HTTP ${a.status})`);
    if (a.json === null) throw new PartnerError('unavailable', 'The partner network did not answer the lookup');
    return a.json as T;
  }

  async status(tx: TxRef): Promise<PartnerReport | null> {
    const a = await enquiry(() => this.http.call('GET', partnerStatusPath(tx.txnId), this.ctx.timeoutFor(tx.operation), {}));
    if (a.status === 404) return null;
    const answer = a.status < 400 ? answerOf(a) : null;
    if (!answer) throw new PartnerError('unavailable', `status enquiry failed with HTTP ${a.status}`);
    const amounts: Amounts = { txnId: tx.txnId, amountPaise: tx.amountPaise ?? undefined, commissionPaise: tx.commissionPaise };
    return { txnId: tx.txnId, partnerRef: answer.partner_ref || null, outcome: outcomeFrom(OP_OF_SLUG[tx.operation], answer, amounts) };
  }

  parseCallback(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): PartnerEvent[] {
    const header = (name: string) => String(req.headers[name] ?? '');
    const headers = { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') };
    let payload: PartnerCallback;
    try {
      payload = this.verifier.verify(req.rawBody, headers) as PartnerCallback;
    } catch (err) {
      if (err instanceof WebhookVerificationError) throw new CallbackRefused(`Callback refused: ${err.message}`);
      throw err;
    }
    const a = payload?.data;
    if (!a || typeof a.client_ref !== 'string') throw new CallbackRefused('Callback refused: data.client_ref is required');
    // Callbacks carry no amounts: the stored ones stay.
    const op = a.operation && a.operation in PARTNER_PATHS ? a.operation : 'upiPay';
    return [{ eventId: headers['webhook-id'], txnId: a.client_ref, partnerRef: a.partner_ref || null, outcome: outcomeFrom(op, a, { txnId: a.client_ref }) }];
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

export const createSangam: ConnectorFactory = (ctx) => new SangamConnector(ctx);
