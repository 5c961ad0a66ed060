// Owns the cashfree-verification connector's HTTP calls: the shared partner transport
// (partner-http.ts) with Cashfree's header authentication (`x-client-id`, `x-client-secret`,
// `x-api-version`, PARTNERS.md §5.1) and our transaction id as `x-request-id` (Cashfree echoes it; it
// ties their logs to ours). Messages never carry the credentials or a body.
import { PartnerHttp, type PartnerAnswer } from '../partner-http.js';

export { Unanswered, Unsent } from '../partner-http.js';
export type CfAnswer = PartnerAnswer;

export class CashfreeVerificationHttp {
  private http: PartnerHttp;

  constructor(
    baseUrl: string,
    private auth: { clientId: string; clientSecret: string; apiVersion: string },
    connectTimeoutMs: number,
  ) {
    // A penny-drop or error body is about a kilobyte; anything far larger is not one.
    this.http = new PartnerHttp({
      baseUrl,
      partner: 'Cashfree',
      connectTimeoutMs,
      maxBodyBytes: 256 * 1024,
      answerIs: 'a penny drop',
      readTimeoutMessage: 'Cashfree did not answer in time',
    });
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  call(method: 'GET' | 'POST', path: string, timeoutMs: number, requestId: string, body?: string): Promise<CfAnswer> {
    const { clientId, clientSecret, apiVersion } = this.auth;
    return this.http.call(method, path, timeoutMs, { 'x-client-id': clientId, 'x-client-secret': clientSecret, 'x-api-version': apiVersion, 'x-request-id': requestId }, body);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
