// Owns the `surepass-signature` connector (Surepass Signature Comparator, PARTNERS.md §6.1), serving
// signature-match. Variables: TOKEN (the Bearer JWT) and SIGNATURE_PATH (the comparator's path under
// URL: the docs did not capture it [G], so it is configured, never guessed); a missing or malformed one
// stops the boot naming it. What is compared with what, and why: transformers.ts.
//
// execute: one POST <URL><SIGNATURE_PATH>, multipart/form-data. Surepass documents no idempotency, no
// status call and no webhook: a comparison is a read, so a repeat is harmless (it only costs a second
// comparison) and nothing is ever left pending or resent by reconciliation. Hence:
//   - 200 with a score → success (a non-match included: the score is the answer);
//   - 422 `signature_not_detected` → failed, a completed check (charged like "no account linked");
//   - anything else — not reached, timed out, 400/401/413/415/422 other codes, 429, 5xx, a 2xx without a
//     score — is a PartnerError: 502 (504 for a timeout), nothing charged, the router may fail over. A
//     comparison Surepass made but never told us of is its cost, never the client's.
import { partnerVars, PartnerError, type Connector, type ConnectorFactory, type OperationRequest, type Outcome, type PartnerContext } from '../connector.js';
import { SurepassHttp, Unanswered, Unsent, type SurepassAnswer } from './http.js';
import { errorText, formOf, noSignatureOutcome, outcomeOf } from './transformers.js';

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
  if (a.status >= 500) return `Surepass failed (HTTP ${a.status}${why ? `: ${why}` : ''})`;
  if (a.status >= 200 && a.status < 300) return `Surepass answered without a score (HTTP ${a.status})`;
  return `Surepass refused the comparison (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

export class SurepassSignatureConnector implements Connector {
  readonly serves = ['signature-match'] as const;
  private http: SurepassHttp;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new SurepassHttp(ctx.url.replace(/\/+$/, ''), s.token, Math.min(5000, ctx.timeoutFor('signature-match')));
  }

  async execute(req: OperationRequest): Promise<Outcome> {
    if (req.operation !== 'signature-match') throw new Error(`the surepass-signature connector does not serve ${req.operation}`);
    const form = formOf(req.input, req.referenceSignature);
    if (typeof form === 'string') throw new PartnerError('unavailable', `${form}; nothing was executed or debited`);
    let a: SurepassAnswer;
    try {
      a = await this.http.postForm(this.s.path, form, this.ctx.timeoutFor('signature-match'));
    } catch (err) {
      if (!(err instanceof Unsent || err instanceof Unanswered)) throw err;
      throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was debited`);
    }
    if (a.status >= 200 && a.status < 300) {
      const outcome = outcomeOf(a.json, req.name);
      if (outcome) return outcome;
    }
    if (a.status === 422) {
      const failed = noSignatureOutcome(a.json);
      if (failed) return failed;
    }
    throw new PartnerError('unavailable', `${failureText(a)}; nothing was debited`);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

export const createSurepassSignature: ConnectorFactory = (ctx) => new SurepassSignatureConnector(ctx, settings(ctx));
