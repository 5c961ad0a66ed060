// Owns the `cashfree-verification` connector (Cashfree Verification API, Mobile Penny Drop, PARTNERS.md
// §5.1), serving mobile-to-bank-account. Variables: CLIENT_ID, CLIENT_SECRET (Verification Suite keys)
// and API_VERSION (optional, YYYY-MM-DD, default 2024-12-01 as documented); URL is the API base such as
// https://api.cashfree.com/verification. A missing or malformed one stops the boot naming it.
//
// execute: POST <URL>/mobile/penny-drop with verification_id = our transaction id (Cashfree's key for
// the penny drop: a repeat is refused, never a second rupee [G]) and user_consent filled from our
// `consent: true` (transformers.ts). The exact body and what the client gave to compare are kept in the
// partner sessions (`pennydrop:<txnId>`) BEFORE it is sent (../recorded.ts), so a status enquiry can compare. Answers:
//   - VALID → success (account, masked), INVALID → failed "no account linked" (a completed check, charged),
//     PENDING or a status we do not know → pending, settled by status enquiry (no webhook is documented).
//   - PartnerError (nothing happened; 502/504, nothing charged; the router may fail over): not reached,
//     400/401/403/404/415/422/429 (refusals before any penny drop), and a 5xx after which Cashfree has no
//     record of the verification_id (one status call right away tells).
//   - The 5xx whose penny drop exists, and 409 (the id was used): answered from the status call.
//   - NoAnswer (pending, reconciled here): a read timeout or broken connection after sending, a 5xx the
//     status call cannot clarify, a 2xx we cannot read, a VALID without its account.
// status: GET <URL>/mobile/penny-drop?verification_id=… [G: the status call is not in the captured docs;
// the shape mirrors Cashfree's other status calls]. A lookup that never creates (CONTRACT §9): unknown
// there is null, and the reconciler fails a request no longer on its way that a second enquiry misses.
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type Outcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
} from '../connector.js';
import { CashfreeVerificationHttp, type CfAnswer } from './http.js';
import { enquiry } from '../partner-http.js';
import { RecordedRequests } from '../recorded.js';
import { asPennyDrop, errorText, givenOf, outcomeOf, pennyDropBody, PENDING_MESSAGE, type GivenAccount } from './transformers.js';

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
  return { clientId: need('CLIENT_ID'), clientSecret: need('CLIENT_SECRET'), apiVersion };
}

/** A refusal before any penny drop, in words that say so; Cashfree's own code and text when given. */
function refusalText(a: CfAnswer): string {
  const why = errorText(a.json);
  if (a.status === 401) return 'Cashfree refused our Verification API credentials (HTTP 401)';
  if (a.status === 429) return 'Cashfree is throttling requests (HTTP 429)';
  return `Cashfree refused the penny drop (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

export class CashfreeVerificationConnector implements Connector {
  readonly serves = ['mobile-to-bank-account'] as const;
  /** [G] A penny drop (§5.1) is an IMPS credit, final in seconds; PENDING has no documented end and no webhook. */
  readonly expectedFinalS = 1800;
  private http: CashfreeVerificationHttp;
  private recorded: RecordedRequests<StoredCreate>;

  constructor(
    private ctx: PartnerContext,
    s: Settings,
  ) {
    this.http = new CashfreeVerificationHttp(ctx.url.replace(/\/+$/, ''), s, Math.min(5000, ctx.timeoutFor('mobile-to-bank-account')));
    this.recorded = new RecordedRequests(ctx.sessions, 'pennydrop', STORED_TTL_S, 'penny drop');
  }

  async execute(req: OperationRequest): Promise<Outcome> {
    if (req.operation !== 'mobile-to-bank-account') throw new Error(`the cashfree-verification connector does not serve ${req.operation}`);
    const stored: StoredCreate = { body: JSON.stringify(pennyDropBody(req.txnId, req.mobile, new Date())), given: givenOf(req.txnId, req) };
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, fields: { service: 'mobile-to-bank-account' } });
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
      // 409: a penny drop under this id exists. 5xx: it may exist. The status call says which.
      let found: Outcome | null | 'unknown';
      try {
        found = await this.lookup(req.txnId, stored.given);
      } catch {
        throw pending(`Cashfree failed (HTTP ${a.status}) and its status could not be read; the outcome will follow`);
      }
      if (found === 'unknown') {
        if (a.status === 409) throw pending('Cashfree reports this verification as existing but cannot show it yet; the outcome will follow');
        await this.recorded.forget(req.txnId);
        throw new PartnerError('unavailable', `Cashfree failed (HTTP ${a.status}${errorText(a.json) ? `: ${errorText(a.json)}` : ''}) and holds no penny drop for this request; nothing was executed or debited`);
      }
      if (!found) throw pending(`Cashfree did not give a usable answer; the outcome will follow`);
      return found;
    }
    // Any other 4xx: refused before a penny drop (validation, credentials, throttling).
    await this.recorded.forget(req.txnId);
    throw new PartnerError('unavailable', `${refusalText(a)}; nothing was executed or debited`);
  }

  async status(tx: TxRef): Promise<PartnerReport | null> {
    if (tx.operation !== 'mobile-to-bank-account') return null;
    const stored = await this.recorded.get(tx.txnId);
    // A lookup by our id, never a resend (CONTRACT §9): a verification Cashfree has no record of is null.
    const found = await enquiry(() => this.lookup(tx.txnId, stored?.given ?? {}));
    if (found === 'unknown') return null;
    const outcome: Outcome = found ?? { status: 'pending', message: PENDING_MESSAGE, fields: { service: 'mobile-to-bank-account' } };
    return { txnId: tx.txnId, partnerRef: outcome.partnerRef ?? null, outcome };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private create(txnId: string, body: string): Promise<CfAnswer> {
    return this.http.call('POST', PATH, this.ctx.timeoutFor('mobile-to-bank-account'), txnId, body);
  }

  /**
   * The status call: the outcome Cashfree now shows, null for an answer we cannot use, 'unknown' when
   * it has no such verification (404). Throws Unsent/Unanswered, or an Error for any other answer.
   */
  private async lookup(txnId: string, given: GivenAccount): Promise<Outcome | null | 'unknown'> {
    const a = await this.http.call('GET', `${PATH}?verification_id=${encodeURIComponent(txnId)}`, this.ctx.timeoutFor('mobile-to-bank-account'), txnId);
    if (a.status === 404) return 'unknown';
    const p = a.status === 200 ? asPennyDrop(a.json) : null;
    if (a.status !== 200) throw new Error(`status call failed with HTTP ${a.status}`);
    return p && outcomeOf(p, txnId, given);
  }
}

export const createCashfreeVerification: ConnectorFactory = (ctx) => new CashfreeVerificationConnector(ctx, settings(ctx));
