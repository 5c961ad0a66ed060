// Owns the `surepass-signature` connector (Surepass Signature Comparator; PARTNER.md beside this file says
// what Surepass's own material says), serving signature-match. Variables: TOKEN (the Bearer JWT) and
// SIGNATURE_PATH (the comparator's path under URL: Surepass's page does not give it, so it is configured,
// never guessed); a missing or malformed one stops the boot naming it. What is compared with what, and
// why: transformers.ts.
//
// execute: one POST <URL><SIGNATURE_PATH>, multipart/form-data. A marker (`compare:<txnId>`, no images)
// is kept in the partner sessions BEFORE it is sent (../recorded.ts). Surepass documents no idempotency,
// no status call and no webhook, and bills a comparison it made. Hence:
//   - 200 with a score → success (a non-match included: the score is the answer);
//   - 422 `signature_not_detected` → failed, a completed check (charged like "no account linked");
//   - PartnerError (nothing compared; 502/504, nothing charged; the router may fail over): not reached,
//     and the documented refusals 400/401/403/404/413/415/422 (other codes)/429;
//   - NoAnswer (pending, the fee held; never sent again, never failed over): a read timeout or a broken
//     connection after sending, any 5xx, a 2xx without a usable score. Surepass may have compared (and
//     billed): concluding "nothing happened" from an answer it does not document would let the client's
//     retry, or another partner, be billed a second time (issue #38, "unknown is not nothing happened").
// status: no status call exists, so a pending comparison stays pending with its hold: the reconciler's
// enquiries answer "pending", it is overdue after expectedFinalS and a person settles it in the console's
// Needs attention queue — as failed (the fee of a completed check), never success: a success carries the
// score, which a person cannot supply (src/contract/partner-read.ts). No marker means it was never sent.
import { partnerVars, NoAnswer, PartnerError, type Connector, type ConnectorFactory, type OperationRequest, type PartnerContext, type PartnerOutcome, type PartnerReport, type TxRef } from '../connector.js';
import { RecordedRequests } from '../recorded.js';
import { SurepassHttp, type SurepassAnswer } from './http.js';
import { errorText, formOf, noSignatureOutcome, outcomeOf } from './transformers.js';

/** How long the marker of a sent comparison is kept: past any reconciliation cutoff. */
const MARKER_TTL_S = 30 * 24 * 3600;

interface Settings {
  token: string;
  path: string;
}

function settings(ctx: PartnerContext): Settings {
  const { name, need } = partnerVars(ctx, 'surepass-signature');
  const token = need('TOKEN', 'the Surepass Bearer token');
  if (/\s/.test(token)) throw new Error(`${name('TOKEN')} must be the Surepass token alone (no spaces, no "Bearer")`);
  const path = need('SIGNATURE_PATH', "the comparator's path, such as /api/v1/signature/signature-comparator");
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(path)) throw new Error(`${name('SIGNATURE_PATH')} must be a URL path starting with /`);
  return { token, path };
}

/** Why Surepass gave no comparison, in words that say so; its own message and code when given. */
function failureText(a: SurepassAnswer): string {
  const why = errorText(a.json);
  if (a.status === 401) return 'Surepass refused our token (HTTP 401)';
  if (a.status === 429) return 'Surepass is throttling requests (HTTP 429)';
  return `Surepass refused the comparison (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

export class SurepassSignatureConnector implements Connector {
  readonly serves = ['signature-match'] as const;
  /** An assumption (Surepass states none): a comparison answers in seconds, so half an hour is long overdue. */
  readonly expectedFinalS = 1800;
  private http: SurepassHttp;
  private sent: RecordedRequests<{ sent: true }>;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new SurepassHttp(ctx.url.replace(/\/+$/, ''), s.token, Math.min(5000, ctx.timeoutFor('signature-match')));
    this.sent = new RecordedRequests(ctx.sessions, 'compare', MARKER_TTL_S, 'comparison');
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation !== 'signature-match') throw new Error(`the surepass-signature connector does not serve ${req.operation}`);
    const form = formOf(req.input, req.referenceSignature);
    if (typeof form === 'string') throw new PartnerError('unavailable', `${form}; nothing was executed or debited`);
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, signature: {} });
    const a = await this.sent.send(
      req.txnId,
      { sent: true },
      () => this.http.postForm(this.s.path, form, this.ctx.timeoutFor('signature-match')),
      (err) => pending(`${err.message}; Surepass may have compared the signatures, the outcome will follow`),
    );
    if (a.status >= 200 && a.status < 300) {
      const outcome = outcomeOf(a.json, req.name);
      if (outcome) return outcome;
      throw pending(`Surepass answered without a usable score (HTTP ${a.status}); the outcome will follow`);
    }
    if (a.status >= 500) {
      const why = errorText(a.json);
      throw pending(`Surepass failed (HTTP ${a.status}${why ? `: ${why}` : ''}) and may have compared the signatures; Surepass documents no status call, so it stays pending with its fee held until a person settles it`);
    }
    if (a.status === 422) {
      const failed = noSignatureOutcome(a.json);
      if (failed) return failed;
    }
    await this.sent.forget(req.txnId);
    throw new PartnerError('unavailable', `${failureText(a)}; nothing was debited`);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (tx.operation !== 'signature-match') return null;
    if (!(await this.sent.get(tx.txnId))) return null;
    const message = 'Surepass documents no status call for a comparison: it stays pending, with its fee held, until a person settles it (Needs attention)';
    return { txnId: tx.txnId, partnerRef: tx.partnerRef, outcome: { status: 'pending', message, signature: {} } };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

export const createSurepassSignature: ConnectorFactory = (ctx) => new SurepassSignatureConnector(ctx, settings(ctx));
