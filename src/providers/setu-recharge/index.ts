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
// How it calls Setu (token, headers, the 401 repeat), the shared shapes and the webhook secret are the
// Setu products' common part, ../setu/.
//
// execute: POST /recharge/request with paymentRefId = our transaction id without its underscore (the
// documented idempotency key: a second request with it is refused, ERR005, and executes nothing). The
// body is kept in the partner sessions (`recharge:<txnId>`) BEFORE it is sent (../recorded.ts). Classification:
//   - PartnerError (nothing executed; charged nothing; the router may fail over): not reached, the login
//     refused, any 4xx (ERR007 invalid-params, ERR011, 401 after a fresh token), and ERR009
//     invalid-instance-id whatever its status (Setu's OpenAPI shows it as a 500 on /recharge/request);
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
// never shows one (§9.4), so no reversal watch is declared. What covers a reversal whose every webhook
// was missed is the float: `floatBalance()` reads GET /wallet/balance (rupees, a JSON number: the spec
// docs/partners/setu-recharge/), and src/float/ compares it with what Sangam's books say the wallet
// should hold; a drift goes to the "Needs attention" queue with the recharges that explain it. Setu
// offers no statement or transaction list through the API (only the balance), so a drift is named by
// amount, not exactly; its reversal window is undocumented [G: 7 days, SANGAM_FLOAT_WINDOW_S].
import {
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type FloatBalance,
  type FloatTerms,
  type OperationRequest,
  type OperatorLookup,
  type PartnerOutcome,
  type PartnerContext,
  type PartnerReport,
  type RechargePlan,
  type Reversal,
  type TxRef,
} from '../connector.js';
import { RecordedRequests } from '../recorded.js';
import { SetuApi, type Answer } from '../setu/http.js';
import { setuSettings, type SetuCommonSettings } from '../setu/settings.js';
import { jwtExpiryMs } from '../setu/tokens.js';
import { dataOf, errorOf, errorText, paymentRefIdOf, txnIdOfPaymentRef, type Known } from '../setu/transformers.js';
import {
  asRechargeData,
  moneyOf,
  lookupBody,
  lookupOf,
  outcomeOf,
  PAYMENT_MODES,
  plansBody,
  plansOf,
  rechargeBody,
  walletBalanceOf,
  SETU_LOCATION,
  SETU_OPERATOR,
  type SetuOperatorDetails,
  type SetuRechargeData,
  type SetuRechargeRequest,
} from './transformers.js';
import { confirms, webhookRoutes, type ParkedReversal } from './webhook.js';

/** How long the request body (and the reference → transaction link) is kept: a week covers any Processing. */
const STORED_TTL_S = 7 * 24 * 3600;
/** [G] Setu documents no token lifetime: a token that is not a JWT with `exp` is renewed after this. */
const DEFAULT_TOKEN_TTL_MS = 10 * 60_000;

export const refKey = (transactionRefId: string) => `tref:${transactionRefId}`;

/**
 * Codes that say a recharge request was refused before anything ran, under whatever HTTP status they come:
 * Setu's OpenAPI shows ERR009 invalid-instance-id as the HTTP **500** example of `/recharge/request` (a 422
 * on its other calls). A 5xx is otherwise "may have acted" (pending); this one is not.
 */
const REFUSED_WHATEVER_STATUS = new Set(['ERR009']);
export const parkedKey = (txnId: string) => `reversal:${txnId}`;
/**
 * Session purposes a refund of a final recharge still needs: the recharge's amounts (to link and
 * credit a REVERSED webhook) and a reversal parked until Setu's status API confirms it. An erasure
 * keeps them until they expire (transactions/erasure.ts).
 */
export const KEPT_FOR_REFUNDS = ['recharge', 'reversal'] as const;

/** What a status enquiry or a webhook needs later: the exact request, and our amounts. */
export interface StoredRecharge {
  body: SetuRechargeRequest;
  amountPaise: number;
  commissionPaise: number;
}

interface Settings extends SetuCommonSettings {
  tokenUrl: string;
  productInstanceId: string;
  mode: SetuRechargeRequest['paymentDetails']['mode'];
  plansMobile: string;
}

function settings(ctx: PartnerContext): Settings {
  const { need, full, ...common } = setuSettings(ctx, 'setu-recharge', PAYMENT_MODES);
  const s: Settings = {
    ...common,
    tokenUrl: need('TOKEN_URL'),
    productInstanceId: need('PRODUCT_INSTANCE_ID'),
    mode: common.mode as Settings['mode'],
    plansMobile: ctx.vars.PLANS_MOBILE?.trim() || '9999999999',
  };
  if (!/^https?:\/\/\S+$/.test(s.tokenUrl)) throw new Error(`${full('TOKEN_URL')} must be an http(s) URL (Setu's login endpoint)`);
  if (!/^[6-9][0-9]{9}$/.test(s.plansMobile)) throw new Error(`${full('PLANS_MOBILE')} must be a 10-digit Indian mobile number`);
  return s;
}

/** [P] POST TOKEN_URL {ClientID, Secret, grant_type} → access_token, renewed by its JWT `exp`. */
function tokenOf(json: unknown) {
  const token = (json as { access_token?: unknown } | null)?.access_token;
  return typeof token === 'string' && token ? { token, expiresAtMs: jwtExpiryMs(token) ?? Date.now() + DEFAULT_TOKEN_TTL_MS } : null;
}

export class SetuRechargeConnector implements Connector {
  readonly serves = ['recharge-commission'] as const;
  /** [G] Setu documents no time for `Processing` (§4.5); a top-up is normally final in seconds and its webhooks end within ~1 minute (§9.4). */
  readonly expectedFinalS = 1800;
  /** The prepaid wallet every recharge draws on (docs/RELIABILITY.md, "Float reconciliation"). */
  readonly float: FloatTerms = { operations: ['recharge-commission'], reversalWindowS: 7 * 86_400, statement: false };
  private api: SetuApi;
  private recorded: RecordedRequests<StoredRecharge>;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.api = new SetuApi({
      label: 'Setu',
      url: ctx.url,
      timeoutMs: ctx.timeoutFor('recharge-commission'),
      headers: { 'x-product-instance-id': s.productInstanceId },
      login: { url: s.tokenUrl, body: { ClientID: s.clientId, Secret: s.clientSecret, grant_type: 'client_credentials' }, tokenOf },
    });
    this.recorded = new RecordedRequests(ctx.sessions, 'recharge', STORED_TTL_S, 'recharge');
  }

  async lookupOperator(mobile: string): Promise<OperatorLookup> {
    return lookupOf(await this.operatorDetails(mobile));
  }

  async plans(operator: string, circle: string): Promise<RechargePlan[]> {
    const op = SETU_OPERATOR[operator];
    const location = SETU_LOCATION[circle];
    if (!op || !location) throw new PartnerError('unavailable', `Setu has no plans for operator ${operator} in circle ${circle}`);
    const a = await this.api.read('POST', '/fetch-plans', plansBody(this.s.plansMobile, op, location), 'plans');
    if (a.status !== 200) throw new PartnerError('unavailable', this.api.refusal(a, 'plan request'));
    return plansOf((a.json as { data?: unknown } | null)?.data, operator);
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation !== 'recharge-commission') throw new Error(`the setu-recharge connector does not serve ${req.operation}`);
    const known: Known = { txnId: req.txnId, amountPaise: req.amountPaise, commissionPaise: req.commissionPaise };
    // Setu needs the circle by its own name: ours mapped, or, when the caller left it out, where Setu says the number lives.
    const location = req.circle ? SETU_LOCATION[req.circle] : (await this.operatorDetails(req.mobile)).current_location;
    if (typeof location !== 'string' || !location) throw new PartnerError('unavailable', 'Setu did not say which circle the number is in; nothing was executed or debited');
    const stored: StoredRecharge = { body: rechargeBody(req, location, this.s.mode), amountPaise: req.amountPaise, commissionPaise: req.commissionPaise };
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, money: moneyOf('pending', null, known) });
    const a = await this.recorded.send(
      req.txnId,
      stored,
      () => this.api.call('POST', '/recharge/request', stored.body),
      () => pending('Setu has not answered yet; the outcome will follow'),
    );
    const data = a.status >= 200 && a.status < 300 ? asRechargeData(a.json) : null;
    if (data) {
      await this.remember(data, req.txnId);
      return outcomeOf(data, known);
    }
    if (errorOf(a.json)?.code === 'ERR005') {
      // Our reference was used: an earlier attempt of this very transaction reached Setu.
      const d = await this.enquire(req.txnId).catch(() => null);
      if (!d) throw pending('Setu already holds a recharge under this reference; its outcome will follow');
      await this.remember(d, req.txnId);
      return outcomeOf(d, known);
    }
    if ((a.status >= 400 && a.status < 500) || REFUSED_WHATEVER_STATUS.has(errorOf(a.json)?.code ?? '')) {
      await this.recorded.forget(req.txnId);
      throw new PartnerError('unavailable', `${this.api.refusal(a, 'recharge')}; nothing was executed or debited`);
    }
    throw pending(`Setu did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (tx.operation !== 'recharge-commission') return null;
    const stored = await this.recorded.get(tx.txnId);
    const known: Known = { txnId: tx.txnId, amountPaise: tx.amountPaise ?? stored?.amountPaise ?? null, commissionPaise: stored?.commissionPaise ?? tx.commissionPaise };
    // A lookup by our reference, never a resend (CONTRACT §9): Setu knowing none (ERR003) is null.
    const d = await this.enquire(tx.txnId);
    if (!d) return null;
    // A reversal its webhook announced while it could not be confirmed (webhook.ts): confirmed now.
    const parked = await this.ctx.sessions.get<ParkedReversal>(parkedKey(tx.txnId));
    return this.reportOf(d, known, parked && confirms(parked, d) ? { reason: parked.reason, at: new Date(parked.at) } : undefined);
  }

  /**
   * [P] GET /wallet/balance: the wallet now, in paise. A PartnerError when Setu cannot be asked or
   * refuses (ERR012 balance-api-unavailable-in-uat: its UAT has no balance API), or answers a balance we
   * cannot read exactly.
   */
  async floatBalance(): Promise<FloatBalance> {
    const a = await this.api.read('GET', '/wallet/balance', undefined, 'wallet balance');
    if (a.status !== 200) throw new PartnerError('unavailable', this.api.refusal(a, 'wallet balance'));
    const paise = walletBalanceOf(a.json);
    if (paise === null) throw new PartnerError('unavailable', 'Setu answered a wallet balance that is not an INR amount in rupees and paise');
    return { balancePaise: paise, at: new Date() };
  }

  routes: Connector['routes'] = (hooks) =>
    webhookRoutes({
      name: this.ctx.name,
      secret: this.s.webhookSecret,
      // Setu's webhook page calls `transactionRefId` the reference "from the original recharge request":
      // the one its answer gave (linked when it answered), or our request's refId (= our paymentRefId).
      txnOfRef: async (ref) => (await this.ctx.sessions.get<string>(refKey(ref))) ?? txnIdOfPaymentRef(ref) ?? undefined,
      known: async (txnId) => {
        const stored = await this.recorded.get(txnId);
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
    return this.api.close();
  }

  /** POST /recharge/status: the recharge as Setu sees it now; null when it knows no such reference (ERR003). */
  async enquire(txnId: string): Promise<SetuRechargeData | null> {
    const a = await this.api.read('POST', '/recharge/status', { paymentRefId: paymentRefIdOf(txnId) }, 'status enquiry');
    const d = a.status >= 200 && a.status < 300 ? asRechargeData(a.json) : null;
    if (d) return d;
    if (errorOf(a.json)?.code === 'ERR003') return null;
    throw new PartnerError('unavailable', `status enquiry: ${this.api.refusal(a, 'status enquiry')}`);
  }

  private async reportOf(d: SetuRechargeData, known: Known, reversal?: Reversal): Promise<PartnerReport<PartnerOutcome>> {
    await this.remember(d, known.txnId);
    const outcome = outcomeOf(d, known);
    // A status API that ever shows REVERSED itself is believed: it is the authenticated channel.
    const rev = reversal ?? (d.status === 'REVERSED' ? { reason: errorText(d.error) ?? 'Recharge reversed by the operator (Setu REVERSED)', at: new Date() } : undefined);
    return { txnId: known.txnId, partnerRef: outcome.partnerRef ?? null, outcome, ...(rev && outcome.status === 'success' ? { reversal: rev } : {}) };
  }

  private async operatorDetails(mobile: string): Promise<SetuOperatorDetails> {
    const a: Answer = await this.api.read('POST', '/fetch-operator-details', lookupBody(mobile), 'operator lookup');
    const data = dataOf<SetuOperatorDetails>(a.json);
    if (a.status !== 200 || !data) throw new PartnerError('unavailable', this.api.refusal(a, 'operator lookup'));
    return data;
  }

  /** Links Setu's transaction reference to ours, for its webhooks (which name only theirs). Best effort. */
  private async remember(d: SetuRechargeData, txnId: string): Promise<void> {
    if (typeof d.transactionRefId === 'string' && d.transactionRefId) await this.ctx.sessions.put(refKey(d.transactionRefId), txnId, STORED_TTL_S).catch(() => undefined);
  }
}

export const createSetuRecharge: ConnectorFactory = (ctx) => new SetuRechargeConnector(ctx, settings(ctx));
