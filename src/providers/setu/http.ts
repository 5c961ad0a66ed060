// Owns how both Setu connectors call Setu (prepaid recharge, ../setu-recharge/, and BBPS DTH,
// ../setu-dth/: two products, one way of calling them): the shared partner transport (../partner-http.ts)
// with absolute URLs (the prepaid login lives on another host than its API), the product's bearer token
// (tokens.ts) on every call with its own headers, one repeat after a 401 with a fresh token (a 401
// executed nothing), the login's classification, and the words of a refusal. Messages never carry
// credentials.
import { PartnerError } from '../connector.js';
import { PartnerHttp, Unanswered, Unsent, type PartnerAnswer } from '../partner-http.js';
import { TokenCache, type IssuedToken } from './tokens.js';
import { errorText, type SetuEnvelope } from './transformers.js';

export { Unanswered, Unsent } from '../partner-http.js';
export type Answer = PartnerAnswer;

export interface SetuLogin {
  url: string;
  body: unknown;
  /** The token in the login's answer (each product names it its own way), or null when there is none. */
  tokenOf(json: unknown): IssuedToken | null;
}

export interface SetuApiOptions {
  /** "Setu", "Setu BBPS": the product in messages. */
  label: string;
  /** The API base (SANGAM_PARTNER_<NAME>_URL). */
  url: string;
  timeoutMs: number;
  /** The product's own headers on every call (X-PRODUCT-INSTANCE-ID, X-PARTNER-ID). */
  headers: Record<string, string>;
  login: SetuLogin;
}

export class SetuApi {
  private http: PartnerHttp;
  private tokens: TokenCache;

  constructor(private o: SetuApiOptions) {
    // Every Setu answer is a few kilobytes (a plan list a few tens); anything far larger is not one.
    this.http = new PartnerHttp({
      baseUrl: '',
      partner: o.label,
      connectTimeoutMs: Math.min(5000, o.timeoutMs),
      maxBodyBytes: 1024 * 1024,
      answerIs: 'any answer it documents',
      readTimeoutMessage: `${o.label} did not answer in time`,
    });
    this.tokens = new TokenCache(() => this.login());
  }

  /** One call with the current token; after a 401, once more with a fresh one. Throws Unsent, Unanswered or the login's PartnerError. */
  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const send = (token: string) =>
      this.http.call(method, `${this.o.url}${path}`, this.o.timeoutMs, { authorization: `Bearer ${token}`, ...this.o.headers }, body === undefined ? undefined : JSON.stringify(body));
    const token = await this.tokens.get();
    const a = await send(token);
    if (a.status !== 401) return a;
    await this.tokens.invalidate(token);
    return send(await this.tokens.get());
  }

  /** A call that moves no money (a lookup, a status enquiry): any transport failure is a PartnerError. */
  read(method: 'GET' | 'POST', path: string, body: unknown, what: string): Promise<Answer> {
    return this.call(method, path, body).catch((err: unknown) => unreachable(err, `${this.o.label} ${what}`));
  }

  /** Why Setu refused a call, in words that say so; its own error text when it gave one. */
  refusal(a: Answer, what: string): string {
    if (a.status === 401) return `${this.o.label} refused our API token (HTTP 401) for the ${what}`;
    const why = errorText((a.json as SetuEnvelope<unknown> | null)?.error);
    return `${this.o.label} refused the ${what} (HTTP ${a.status}${why ? `: ${why}` : ''})`;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async login(): Promise<IssuedToken> {
    const { label, login } = this.o;
    const a = await this.http
      .call('POST', login.url, this.o.timeoutMs, {}, JSON.stringify(login.body))
      .catch((err: unknown) => unreachable(err, `${label} login`));
    if (a.status === 401 || a.status === 403) throw new PartnerError('unavailable', `${label} refused our client credentials (HTTP ${a.status}); nothing was executed or debited`);
    const t = a.status === 200 ? login.tokenOf(a.json) : null;
    if (!t) throw new PartnerError('unavailable', `${label} login failed (HTTP ${a.status}); nothing was executed or debited`);
    return t;
  }
}

/** A transport failure of a call that moves no money (a login, a lookup, a status enquiry): a PartnerError. */
export function unreachable(err: unknown, what: string): never {
  if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${what}: ${err.message}`);
  if (err instanceof Unanswered) throw new PartnerError('timeout', `${what}: ${err.message}`);
  throw err;
}
