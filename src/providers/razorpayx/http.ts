// Owns the RazorpayX connector's HTTP calls: the shared partner transport (partner-http.ts) with HTTP
// Basic auth (`Basic base64(KEY_ID:KEY_SECRET)`, PARTNERS.md §2.1). Messages never carry the credentials.
import { PartnerHttp, type PartnerAnswer } from '../partner-http.js';

export { Unanswered, Unsent } from '../partner-http.js';
export type RzpAnswer = PartnerAnswer;

export class RazorpayxHttp {
  private http: PartnerHttp;
  private authorization: string;

  constructor(baseUrl: string, keyId: string, keySecret: string, connectTimeoutMs: number) {
    // A payout or error body is a few kilobytes; anything far larger is not one.
    this.http = new PartnerHttp({ baseUrl, partner: 'RazorpayX', connectTimeoutMs, maxBodyBytes: 1024 * 1024, answerIs: 'a payout' });
    this.authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`, 'utf8').toString('base64')}`;
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  call(method: 'GET' | 'POST', path: string, timeoutMs: number, body?: string, headers: Record<string, string> = {}): Promise<RzpAnswer> {
    return this.http.call(method, path, timeoutMs, { authorization: this.authorization, ...headers }, body);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
