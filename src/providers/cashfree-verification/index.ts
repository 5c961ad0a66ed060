// Owns the `cashfree-verification` connector (Cashfree Verification API; PARTNER.md beside this file says
// what Cashfree's own material says and what is still our reading), serving mobile-to-bank-account (Mobile
// Penny Drop, below) and the payee verifications account-verification and vpa-verification (Bank Account
// Verification V2 and UPI Verification V2, payee.ts). Variables: CLIENT_ID, CLIENT_SECRET (Verification
// Suite keys), API_VERSION (optional, YYYY-MM-DD, default 2024-12-01 as documented) and BAV_MODE (optional,
// `sync` by default or `async`: which BAV V2 call account-verification makes, PARTNER.md); URL is the API
// base such as https://api.cashfree.com/verification. A missing or malformed one stops the boot naming it.
//
// execute: POST <URL>/mobile/penny-drop — the only call Cashfree documents for it — with verification_id =
// our transaction id, mobile_number as its sample sends it (a number) and user_consent filled from our
// `consent: true` (transformers.ts). The exact body and what the client gave to compare are kept in the
// partner sessions (`pennydrop:<txnId>`) BEFORE it is sent (../recorded.ts). Answers:
//   - VALID → success (account, masked), INVALID → failed "no account linked" (a completed check, charged),
//     PENDING or a status we do not know → pending.
//   - PartnerError (nothing happened; 502/504, nothing charged; the router may fail over): not reached,
//     and 400/401/403/404/415/422/429 — refusals before any penny drop.
//   - NoAnswer (pending, the fee held; never sent again, never failed over): a read timeout or a broken
//     connection after sending, any 5xx, a 409, a 2xx we cannot read. Cashfree may have made (and billed)
//     the penny drop: concluding "not executed" from an answer it does not document would let the
//     client's retry (or another partner) send a second rupee.
// status: Cashfree documents NO status call for the mobile penny drop (nor idempotency of the POST, so it is
// never replayed to learn the outcome). A pending penny drop therefore stays pending with its hold: the
// reconciler's enquiries answer "pending", the transaction is overdue after expectedFinalS and goes to
// manual review at the cutoff — the console's Needs attention queue, where a person (Cashfree's dashboard
// or support in hand) settles it. Only our own record answers null: no `pennydrop:` record means the
// request was never sent. When Cashfree documents a status call, it belongs here.
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type PartnerOutcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
} from '../connector.js';
import { CashfreeVerificationHttp, type CfAnswer } from './http.js';
import { RecordedRequests } from '../recorded.js';
import { CashfreePayee, type BavMode } from './payee.js';
import { asPennyDrop, errorText, givenOf, outcomeOf, pennyDropBody, type GivenAccount } from './transformers.js';

/** [P] the default x-api-version of the Verification API. */
const DEFAULT_API_VERSION = '2024-12-01';
const PATH = '/mobile/penny-drop';
/** Longer than any reconciliation (SANGAM_RECONCILE_CUTOFF_S is at most 30 days; default 1 day). */
const STORED_TTL_S = 30 * 24 * 3600;

/** What a status enquiry needs: the exact create body and what the client gave to compare. */
interface StoredCreate {
  body: string;
  given: GivenAccount;
}

interface Settings {
  clientId: string;
  clientSecret: string;
  apiVersion: string;
  bavMode: BavMode;
}

function settings(ctx: PartnerContext): Settings {
  const vars = partnerVars(ctx, 'cashfree-verification');
  const name = vars.name;
  const need = (v: string) => {
    const value = vars.need(v);
    if (/\s/.test(value)) throw new Error(`${name(v)} must not contain spaces`);
    return value;
  };
  const apiVersion = ctx.vars.API_VERSION?.trim() || DEFAULT_API_VERSION;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(apiVersion)) throw new Error(`${name('API_VERSION')} must be a date such as ${DEFAULT_API_VERSION} (Cashfree's x-api-version)`);
  const bavMode = ctx.vars.BAV_MODE?.trim() || 'sync';
  if (bavMode !== 'sync' && bavMode !== 'async') throw new Error(`${name('BAV_MODE')} must be sync or async (which Bank Account Verification V2 call to make)`);
  return { clientId: need('CLIENT_ID'), clientSecret: need('CLIENT_SECRET'), apiVersion, bavMode };
}

/** A refusal before any penny drop, in words that say so; Cashfree's own code and text when given. */
function refusalText(a: CfAnswer): string {
  const why = errorText(a.json);
  if (a.status === 401) return 'Cashfree refused our Verification API credentials (HTTP 401)';
  if (a.status === 429) return 'Cashfree is throttling requests (HTTP 429)';
  return `Cashfree refused the penny drop (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

export class CashfreeVerificationConnector implements Connector {
  readonly serves = ['mobile-to-bank-account', 'account-verification', 'vpa-verification'] as const;
  /** [G] A penny drop (the mobile's, or BAV's) is a UPI or IMPS credit, final in seconds; no end of a pending is documented: past this a person looks. */
  readonly expectedFinalS = 1800;
  private http: CashfreeVerificationHttp;
  private recorded: RecordedRequests<StoredCreate>;
  private payee: CashfreePayee;

  constructor(
    private ctx: PartnerContext,
    s: Settings,
  ) {
    this.http = new CashfreeVerificationHttp(ctx.url.replace(/\/+$/, ''), s, Math.min(5000, ctx.timeoutFor('mobile-to-bank-account')));
    this.recorded = new RecordedRequests(ctx.sessions, 'pennydrop', STORED_TTL_S, 'penny drop');
    this.payee = new CashfreePayee(ctx, this.http, s.bavMode);
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation === 'account-verification' || req.operation === 'vpa-verification') return this.payee.execute(req);
    if (req.operation !== 'mobile-to-bank-account') throw new Error(`the cashfree-verification connector does not serve ${req.operation}`);
    const stored: StoredCreate = { body: JSON.stringify(pennyDropBody(req.txnId, req.mobile, new Date())), given: givenOf(req.txnId, req) };
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, account: {} });
    const a = await this.recorded.send(
      req.txnId,
      stored,
      () => this.create(req.txnId, stored.body),
      (err) => pending(`${err.message}; the penny drop may have been made, the outcome will follow`),
    );
    if (a.status >= 200 && a.status < 300) {
      const p = asPennyDrop(a.json);
      const outcome = p && outcomeOf(p, req.txnId, stored.given);
      if (!outcome) throw pending(`Cashfree did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
      return outcome;
    }
    if (a.status === 409 || a.status >= 500) {
      // 409: a penny drop under this id exists. 5xx: it may exist. Cashfree documents no way to ask which.
      const why = errorText(a.json);
      throw pending(`Cashfree answered HTTP ${a.status}${why ? ` (${why})` : ''}: the penny drop may have been made, and Cashfree documents no status call; it stays pending with its fee held until a person settles it`);
    }
    // Any other 4xx: refused before a penny drop (validation, credentials, throttling, a route it does not have).
    await this.recorded.forget(req.txnId);
    throw new PartnerError('unavailable', `${refusalText(a)}; nothing was executed or debited`);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (CashfreePayee.serves(tx.operation)) return this.payee.status(tx);
    if (tx.operation !== 'mobile-to-bank-account') return null;
    // Our own record is the one thing that says "never sent": it is written before the POST goes out.
    if (!(await this.recorded.get(tx.txnId))) return null;
    const message = 'Cashfree documents no status call for the mobile penny drop: it stays pending, with its fee held, until a person settles it (Needs attention)';
    return { txnId: tx.txnId, partnerRef: tx.partnerRef, outcome: { status: 'pending', message, account: {} } };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private create(txnId: string, body: string): Promise<CfAnswer> {
    return this.http.call('POST', PATH, this.ctx.timeoutFor('mobile-to-bank-account'), txnId, body);
  }
}

export const createCashfreeVerification: ConnectorFactory = (ctx) => new CashfreeVerificationConnector(ctx, settings(ctx));
