// Owns the Cashfree Payouts connector's HTTP calls: the shared partner transport (partner-http.ts)
// with the V2 headers (`x-client-id`, `x-client-secret`, `x-api-version`, `x-request-id`; PARTNERS.md
// §3.1) and the 429 wait Cashfree gives. Messages never carry the credentials.
import { PartnerHttp, type PartnerAnswer } from '../partner-http.js';

export { Unanswered, Unsent } from '../partner-http.js';

export interface CfAnswer extends PartnerAnswer {
  /** [P] seconds to wait after a 429 (`x-ratelimit-retry`), when given. */
  retryAfterS: number | null;
}

export interface CfCredentials {
  clientId: string;
  clientSecret: string;
  apiVersion: string;
}

export class CashfreeHttp {
  private http: PartnerHttp;

  constructor(
    baseUrl: string,
    private creds: CfCredentials,
    connectTimeoutMs: number,
  ) {
    // A transfer or error body is a few kilobytes; anything far larger is not one.
    this.http = new PartnerHttp({ baseUrl, partner: 'Cashfree', connectTimeoutMs, maxBodyBytes: 1024 * 1024, answerIs: 'a transfer' });
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  async call(method: 'GET' | 'POST', path: string, timeoutMs: number, requestId: string, body?: string): Promise<CfAnswer> {
    const { clientId, clientSecret, apiVersion } = this.creds;
    const a = await this.http.call(method, path, timeoutMs, { 'x-client-id': clientId, 'x-client-secret': clientSecret, 'x-api-version': apiVersion, 'x-request-id': requestId }, body);
    const retry = Number(a.headers['x-ratelimit-retry']);
    return { ...a, retryAfterS: Number.isInteger(retry) && retry > 0 ? retry : null };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
