// Owns the `setu-recharge` connector (Setu Prepaid Recharge API, PARTNERS.md §4.1–4.6), serving
// recharge-commission and the recharge pre-flight (CONTRACT §10: operator lookup and plans). Variables:
// TOKEN_URL (the login endpoint, on another host than the API: https://accountservice.setu.co/v1/users/login),
// CLIENT_ID, CLIENT_SECRET, PRODUCT_INSTANCE_ID, WEBHOOK_SECRET (the secret path segment of the webhook
// URL given to Setu, see webhook.ts); optional PAYMENT_MODE (default Wallet) and PLANS_MOBILE (the number
// a plan request names, default 9999999999). A missing or malformed one stops the boot naming it.
//
// Auth: POST TOKEN_URL {ClientID, Secret, grant_type} → access_token, kept until shortly before its JWT
// `exp` (undocumented [G]; 10 minutes when it has none), fetched again after a 401 and the call repeated
// once (a 401 executed nothing). Every call carries Bearer + X-PRODUCT-INSTANCE-ID.
//
// execute: POST /recharge/request with paymentRefId = our transaction id without its underscore (the
// documented idempotency key: a second request with it is refused, ERR005, and executes nothing). The
// body is kept in the partner sessions (`recharge:<txnId>`) BEFORE it is sent. Classification:
//   - PartnerError (nothing executed; charged nothing; the router may fail over): not reached, the login
//     refused, any 4xx (ERR007 invalid-params, ERR011, ERR009, 401 after a fresh token);
//   - NoAnswer (it may have acted; pending, reconciled here): a read timeout or broken connection after
//     the request went out, any 5xx (ERR100, ERR999: PARTNERS.md documents none as "not executed"), a 2xx
//     we cannot read;
//   - ERR005 on our own reference: an earlier attempt got there — its status is the answer.
// Statuses [P §4.3]: Successful → success (utr = operatorRefId), Failure → failed, Processing and
// anything unknown → pending. `commission` is what we earn on it, in INR (0 when failed).
// status: POST /recharge/status {paymentRefId}, a lookup by our reference that never creates anything
// (CONTRACT §9); ERR003 (no such reference) is null, and the reconciler fails the transaction once no
// request can still be on its way and a second enquiry finds none. Polling (§4.5): no interval is
// documented [G]; the reconciler's schedule spaces the enquiries.
// Reversals: Setu signals them only by webhook (REVERSED, §4.3), handled in webhook.ts; its status API
// never shows one (§9.4), so no reversal watch is declared (docs/DECISIONS.md says what covers it).
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type OperatorLookup,
  type Outcome,
  type PartnerContext,
  type PartnerReport,
  type RechargePlan,
  type Reversal,
  type TxRef,
} from '../connector.js';
import { jwtExpiryMs, SetuHttp, TokenCache, Unanswered, Unsent, unreachable, type Answer, type IssuedToken } from './http.js';
import {
  asRechargeData,
  errorText,
  fieldsOf,
  lookupBody,
  lookupOf,
  outcomeOf,
  PAYMENT_MODES,
  paymentRefIdOf,
  plansBody,
  plansOf,
  rechargeBody,
  SETU_LOCATION,
  SETU_OPERATOR,
  type Known,
  type SetuEnvelope,
  type SetuOperatorDetails,
  type SetuRechargeData,
  type SetuRechargeRequest,
} from './transformers.js';
import { confirms, registerWebhooks, type ParkedReversal } from './webhook.js';

/** How long the request body (and the reference → transaction link) is kept: a week covers any Processing. */
const STORED_TTL_S = 7 * 24 * 3600;
/** [G] Setu documents no token lifetime: a token that is not a JWT with `exp` is renewed after this. */
const DEFAULT_TOKEN_TTL_MS = 10 * 60_000;

export const storedKey = (txnId: string) => `recharge:${txnId}`;
export const refKey = (transactionRefId: string) => `tref:${transactionRefId}`;
export const parkedKey = (txnId: string) => `reversal:${txnId}`;

/** What a status enquiry or a webhook needs later: the exact request, and our amounts. */
export interface StoredRecharge {
  body: SetuRechargeRequest;
  amountPaise: number;
  commissionPaise: number;
}

interface Settings {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  productInstanceId: string;
  webhookSecret: string;
  mode: SetuRechargeRequest['paymentDetails']['mode'];
  plansMobile: string;
}

function settings(ctx: PartnerContext): Settings {
  const { name: full, need } = partnerVars(ctx, 'setu-recharge');
  const s: Settings = {
    tokenUrl: need('TOKEN_URL'),
    clientId: need('CLIENT_ID'),
    clientSecret: need('CLIENT_SECRET'),
    productInstanceId: need('PRODUCT_INSTANCE_ID'),
    webhookSecret: need('WEBHOOK_SECRET'),
    mode: (ctx.vars.PAYMENT_MODE?.trim() || 'Wallet') as Settings['mode'],
    plansMobile: ctx.vars.PLANS_MOBILE?.trim() || '9999999999',
  };
  if (!/^https?:\/\/\S+$/.test(s.tokenUrl)) throw new Error(`${full('TOKEN_URL')} must be an http(s) URL (Setu's login endpoint)`);
  if (!/^[A-Za-z0-9_-]{24,128}$/.test(s.webhookSecret)) throw new Error(`${full('WEBHOOK_SECRET')} must be 24 to 128 letters, digits, _ or - (it is a path segment of the webhook URL)`);
  if (!(PAYMENT_MODES as readonly string[]).includes(s.mode)) throw new Error(`${full('PAYMENT_MODE')} must be one of ${PAYMENT_MODES.join(', ')}`);
  if (!/^[6-9][0-9]{9}$/.test(s.plansMobile)) throw new Error(`${full('PLANS_MOBILE')} must be a 10-digit Indian mobile number`);
  return s;
}

/** Setu's error body of an answer, if it has one. */
const errorOf = (a: Answer) => (a.json as SetuEnvelope<unknown> | null)?.error ?? null;

function refusal(a: Answer, what: string): string {
  if (a.status === 401) return `Setu refused our API token (HTTP 401) for the ${what}`;
  const why = errorText(errorOf(a));
  return `Setu refused the ${what} (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

export class SetuRechargeConnector implements Connector {
  readonly serves = ['recharge-commission'] as const;
  /** [G] Setu documents no time for `Processing` (§4.5); a top-up is normally final in seconds and its webhooks end within ~1 minute (§9.4). */
  readonly expectedFinalS = 1800;
  private http: SetuHttp;
  private tokens: TokenCache;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new SetuHttp('Setu', Math.min(5000, ctx.timeoutFor('recharge-commission')));
    this.tokens = new TokenCache(() => this.login());
  }

  private get timeout(): number {
    return this.ctx.timeoutFor('recharge-commission');
  }

  async lookupOperator(mobile: string): Promise<OperatorLookup> {
    return lookupOf(await this.operatorDetails(mobile));
  }

  async plans(operator: string, circle: string): Promise<RechargePlan[]> {
    const op = SETU_OPERATOR[operator];
    const location = SETU_LOCATION[circle];
    if (!op || !location) throw new PartnerError('unavailable', `Setu has no plans for operator ${operator} in circle ${circle}`);
    const a = await this.api('/fetch-plans', plansBody(this.s.plansMobile, op, location)).catch((err: unknown) => unreachable(err, 'Setu plans'));
    if (a.status !== 200) throw new PartnerError('unavailable', refusal(a, 'plan request'));
    return plansOf((a.json as SetuEnvelope<unknown> | null)?.data, operator);
  }

  async execute(req: OperationRequest): Promise<Outcome> {
    if (req.operation !== 'recharge-commission') throw new Error(`the setu-recharge connector does not serve ${req.operation}`);
    const known: Known = { txnId: req.txnId, amountPaise: req.amountPaise, commissionPaise: req.commissionPaise };
    // Setu needs the circle by its own name: ours mapped, or, when the caller left it out, where Setu says the number lives.
    const location = req.circle ? SETU_LOCATION[req.circle] : (await this.operatorDetails(req.mobile)).current_location;
    if (typeof location !== 'string' || !location) throw new PartnerError('unavailable', 'Setu did not say which circle the number is in; nothing was executed or debited');
    const stored: StoredRecharge = { body: rechargeBody(req, location, this.s.mode), amountPaise: req.amountPaise, commissionPaise: req.commissionPaise };
    try {
      await this.ctx.sessions.put(storedKey(req.txnId), stored, STORED_TTL_S);
    } catch {
      throw new PartnerError('unavailable', 'The recharge request could not be recorded before sending; nothing was sent or debited');
    }
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, fields: fieldsOf('pending', null, known) });
    let a: Answer;
    try {
      a = await this.api('/recharge/request', stored.body);
    } catch (err) {
      if (err instanceof Unanswered) throw pending('Setu has not answered yet; the outcome will follow');
      await this.forget(req.txnId);
      if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      throw err; // the login's PartnerError: nothing was sent
    }
    const data = a.status >= 200 && a.status < 300 ? asRechargeData(a.json) : null;
    if (data) {
      await this.remember(data, req.txnId);
      return outcomeOf(data, known);
    }
    if (errorOf(a)?.code === 'ERR005') {
      // Our reference was used: an earlier attempt of this very transaction reached Setu.
      const d = await this.enquire(req.txnId).catch(() => null);
      if (!d) throw pending('Setu already holds a recharge under this reference; its outcome will follow');
      await this.remember(d, req.txnId);
      return outcomeOf(d, known);
    }
    if (a.status >= 400 && a.status < 500) {
      await this.forget(req.txnId);
      throw new PartnerError('unavailable', `${refusal(a, 'recharge')}; nothing was executed or debited`);
    }
    throw pending(`Setu did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
  }

  async status(tx: TxRef): Promise<PartnerReport | null> {
    if (tx.operation !== 'recharge-commission') return null;
    const stored = await this.ctx.sessions.get<StoredRecharge>(storedKey(tx.txnId));
    const known: Known = { txnId: tx.txnId, amountPaise: tx.amountPaise ?? stored?.amountPaise ?? null, commissionPaise: stored?.commissionPaise ?? tx.commissionPaise };
    // A lookup by our reference, never a resend (CONTRACT §9): Setu knowing none (ERR003) is null.
    const d = await this.enquire(tx.txnId);
    if (!d) return null;
    // A reversal its webhook announced while it could not be confirmed (webhook.ts): confirmed now.
    const parked = await this.ctx.sessions.get<ParkedReversal>(parkedKey(tx.txnId));
    return this.reportOf(d, known, parked && confirms(parked, d) ? { reason: parked.reason, at: new Date(parked.at) } : undefined);
  }

  routes: Connector['routes'] = (app, hooks) =>
    registerWebhooks(app, {
      name: this.ctx.name,
      secret: this.s.webhookSecret,
      txnOfRef: (ref) => this.ctx.sessions.get<string>(refKey(ref)),
      known: async (txnId) => {
        const stored = await this.ctx.sessions.get<StoredRecharge>(storedKey(txnId));
        return stored ? { txnId, amountPaise: stored.amountPaise, commissionPaise: stored.commissionPaise } : null;
      },
      enquire: (txnId) => this.enquire(txnId),
      reportOf: (d, known, reversal) => this.reportOf(d, known, reversal),
      report: (r) => hooks.report(r),
      park: async (txnId, parked) => {
        await this.ctx.sessions.put(parkedKey(txnId), parked, STORED_TTL_S);
        await hooks.recheck(txnId);
      },
    });

  close(): Promise<void> {
    return this.http.close();
  }

  /** POST /recharge/status: the recharge as Setu sees it now; null when it knows no such reference (ERR003). */
  async enquire(txnId: string): Promise<SetuRechargeData | null> {
    const a = await this.api('/recharge/status', { paymentRefId: paymentRefIdOf(txnId) }).catch((err: unknown) => unreachable(err, 'Setu status enquiry'));
    const d = a.status >= 200 && a.status < 300 ? asRechargeData(a.json) : null;
    if (d) return d;
    if (errorOf(a)?.code === 'ERR003') return null;
    throw new PartnerError('unavailable', `status enquiry: ${refusal(a, 'status enquiry')}`);
  }

  private async reportOf(d: SetuRechargeData, known: Known, reversal?: Reversal): Promise<PartnerReport> {
    await this.remember(d, known.txnId);
    const outcome = outcomeOf(d, known);
    // A status API that ever shows REVERSED itself is believed: it is the authenticated channel.
    const rev = reversal ?? (d.status === 'REVERSED' ? { reason: errorText(d.error) ?? 'Recharge reversed by the operator (Setu REVERSED)', at: new Date() } : undefined);
    return { txnId: known.txnId, partnerRef: outcome.partnerRef ?? null, outcome, ...(rev && outcome.status === 'success' ? { reversal: rev } : {}) };
  }

  private async operatorDetails(mobile: string): Promise<SetuOperatorDetails> {
    const a = await this.api('/fetch-operator-details', lookupBody(mobile)).catch((err: unknown) => unreachable(err, 'Setu operator lookup'));
    const data = (a.json as SetuEnvelope<SetuOperatorDetails> | null)?.data;
    if (a.status !== 200 || !data) throw new PartnerError('unavailable', refusal(a, 'operator lookup'));
    return data;
  }

  /** POST to the API with the current token; after a 401, once more with a fresh one (a 401 executed nothing). */
  private async api(path: string, body: unknown): Promise<Answer> {
    const send = (token: string) =>
      this.http.call('POST', `${this.ctx.url}${path}`, this.timeout, body, { authorization: `Bearer ${token}`, 'x-product-instance-id': this.s.productInstanceId });
    const token = await this.tokens.get();
    const a = await send(token);
    if (a.status !== 401) return a;
    await this.tokens.invalidate(token);
    return send(await this.tokens.get());
  }

  private async login(): Promise<IssuedToken> {
    const a = await this.http
      .call('POST', this.s.tokenUrl, this.timeout, { ClientID: this.s.clientId, Secret: this.s.clientSecret, grant_type: 'client_credentials' })
      .catch((err: unknown) => unreachable(err, 'Setu login'));
    const token = (a.json as { access_token?: unknown } | null)?.access_token;
    if (a.status === 401 || a.status === 403) throw new PartnerError('unavailable', `Setu refused our client credentials (HTTP ${a.status}); nothing was executed or debited`);
    if (a.status !== 200 || typeof token !== 'string' || !token) throw new PartnerError('unavailable', `Setu login failed (HTTP ${a.status}); nothing was executed or debited`);
    return { token, expiresAtMs: jwtExpiryMs(token) ?? Date.now() + DEFAULT_TOKEN_TTL_MS };
  }

  /** Links Setu's transaction reference to ours, for its webhooks (which name only theirs). Best effort. */
  private async remember(d: SetuRechargeData, txnId: string): Promise<void> {
    if (typeof d.transactionRefId === 'string' && d.transactionRefId) await this.ctx.sessions.put(refKey(d.transactionRefId), txnId, STORED_TTL_S).catch(() => undefined);
  }

  /** Drops the stored body of a request that cannot have executed (best effort: it expires anyway). */
  private async forget(txnId: string): Promise<void> {
    await this.ctx.sessions.delete(storedKey(txnId)).catch(() => undefined);
  }
}

export const createSetuRecharge: ConnectorFactory = (ctx) => new SetuRechargeConnector(ctx, settings(ctx));
