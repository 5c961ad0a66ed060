// Owns the payee verifications RazorpayX serves by fund account validation (CONTRACT §14; PARTNERS.md
// §9.1): account-verification (a bank account fund account: a penny drop, its UTR where RazorpayX gives
// one) and vpa-verification (a VPA fund account). POST /v1/fund_accounts/validations from the Lite
// identifier (FAV_ACCOUNT_NUMBER) with `reference_id` = our transaction id, then, while it is `created`,
// GET /v1/fund_accounts/validations/{id} for up to VALIDATION_WAIT_MS (validation.ts awaitVerdict); a
// validation still `created` then is pending, settled by its `fund_account.validation.*` webhook or by
// a status enquiry (transformers.ts payeeOutcomeOf says what each status means).
//
// What RazorpayX may have done decides the error (the unknown-answer rule of issue #38): a validation
// is charged ("a verification charge for every validation"), and no idempotency is documented for it,
// so a create that may have arrived is never sent again.
//   - PartnerError (nothing was validated or charged; the router may fail over): an input RazorpayX
//     documents it refuses (checked before sending), not reached, or any 4xx (a BAD_REQUEST_ERROR, 401,
//     429: a refusal).
//   - NoAnswer (it may have validated; pending, fee held, reconciled with RazorpayX only): a read timeout
//     or broken connection after the request went out, any 5xx, or a 2xx we cannot read.
// Once the create was answered, an enquiry that fails during the wait only ends the wait (pending).
// status: GET by the validation id when known; else the validations listed under the Lite identifier
// (`GET /v1/fund_accounts/validations?account_number=`, no reference filter is documented), searched for
// our reference page by page. Only RazorpayX's documented not-found (400, field id) on the GET, or a full
// listing without ours, is "never made" (null).
import { NoAnswer, PartnerError, type PartnerOutcome, type PartnerReport } from '../connector.js';
import { enquiry } from '../partner-http.js';
import { Unsent, type RazorpayxHttp, type RzpAnswer } from './http.js';
import {
  asValidation,
  asValidationList,
  bankRefusalOf,
  errorDescription,
  payeeOutcomeOf,
  payeeReportOf,
  payeeResult,
  payeeValidationBody,
  refusalOf,
  MIN_AMOUNT_PAISE,
  type PayeeKind,
  type PayeeRequest,
  type RzpErrorBody,
  type RzpValidation,
} from './transformers.js';
import { awaitVerdict, validationPath, type ValidationSettings } from './validation.js';

const NOTHING_CHARGED = 'nothing was validated or charged';
/** [P §9.1] `count` ≤ 100; pages read before an enquiry gives up on finding our reference (then it asks again later). */
const PAGE = 100;
const MAX_PAGES = 10;

const kindOf = (req: PayeeRequest): PayeeKind => (req.operation === 'account-verification' ? 'bankAccount' : 'vpa');

/** Why RazorpayX would refuse this input, or null. */
function preRefusal(req: PayeeRequest): string | null {
  return req.operation === 'account-verification' ? bankRefusalOf(req.accountNumber, req.ifsc) : refusalOf(req.vpa, MIN_AMOUNT_PAISE);
}

/** A verification's outcome; throws PartnerError or NoAnswer (see the module header). */
export async function verifyPayee(http: RazorpayxHttp, s: ValidationSettings, req: PayeeRequest): Promise<PartnerOutcome> {
  const pre = preRefusal(req);
  if (pre) throw new PartnerError('unavailable', `${pre}; ${NOTHING_CHARGED}`);
  const kind = kindOf(req);
  const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, ...payeeResult(kind, { status: 'unknown', nameAtBank: null }) });
  const giveUpAt = Date.now() + s.waitMs;
  let a: RzpAnswer;
  try {
    a = await http.call('POST', '/v1/fund_accounts/validations', s.callTimeoutMs, JSON.stringify(payeeValidationBody(req, s.accountNumber)));
  } catch (err) {
    if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; ${NOTHING_CHARGED}`);
    throw pending('RazorpayX has not answered the validation yet; the outcome will follow');
  }
  if (a.status >= 400 && a.status < 500) {
    const why = errorDescription(a.json as RzpErrorBody);
    throw new PartnerError('unavailable', `RazorpayX refused the validation (HTTP ${a.status}${why ? `: ${why}` : ''}); ${NOTHING_CHARGED}`);
  }
  const created = a.status >= 200 && a.status < 300 ? asValidation(a.json) : null;
  if (!created) throw pending(`RazorpayX did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
  const fav = await awaitVerdict(created, giveUpAt, (id) =>
    http.call('GET', validationPath(id), s.callTimeoutMs).then(
      (g) => (g.status === 200 ? asValidation(g.json) : null),
      () => null,
    ),
  );
  return payeeOutcomeOf(fav, kind);
}

/** A status enquiry of a verification (see the module header); null when RazorpayX has no such validation. */
export async function payeeStatus(http: RazorpayxHttp, s: ValidationSettings, tx: { txnId: string; partnerRef: string | null }): Promise<PartnerReport<PartnerOutcome> | null> {
  const f = tx.partnerRef ? await fetchValidation(http, s, tx.partnerRef) : await byReference(http, s, tx.txnId);
  return f ? payeeReportOf(f, tx.txnId) : null;
}

/** GET one validation; null only on RazorpayX's documented answer for an unknown id (400, field id). */
async function fetchValidation(http: RazorpayxHttp, s: ValidationSettings, id: string): Promise<RzpValidation | null> {
  const a = await enquiry(() => http.call('GET', validationPath(id), s.callTimeoutMs));
  if (a.status === 400 && (a.json as RzpErrorBody | null)?.error?.field === 'id') return null;
  const f = a.status === 200 ? asValidation(a.json) : null;
  if (!f) throw new Error(`status enquiry failed with HTTP ${a.status}`);
  return f;
}

/** The one validation listed under our reference (newest first: the page it is on is read whole); null when the whole listing holds none. */
async function byReference(http: RazorpayxHttp, s: ValidationSettings, txnId: string): Promise<RzpValidation | null> {
  const ours: RzpValidation[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({ account_number: s.accountNumber, count: String(PAGE), skip: String(page * PAGE) });
    const a = await enquiry(() => http.call('GET', `/v1/fund_accounts/validations?${q}`, s.callTimeoutMs));
    const items = a.status === 200 ? asValidationList(a.json) : null;
    if (!items) throw new Error(`status enquiry by reference failed with HTTP ${a.status}`);
    ours.push(...items.filter((f) => f.reference_id === txnId));
    if (items.length < PAGE || ours.length > 0) {
      if (ours.length > 1) throw new Error(`RazorpayX lists ${ours.length} validations under our reference ${txnId}: left for a person to resolve`);
      return ours[0] ?? null;
    }
  }
  throw new Error(`RazorpayX lists more than ${MAX_PAGES * PAGE} validations; ours (${txnId}) was not among the newest: asked again later`);
}
