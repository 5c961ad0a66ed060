// Owns the surepass-signature connector's HTTP call: the shared partner transport (partner-http.ts) with
// Surepass's `Authorization: Bearer <token>` (PARTNERS.md §6.1) and a multipart/form-data body. Messages
// never carry the token or a body.
import { newFormData, PartnerHttp, type PartnerAnswer } from '../partner-http.js';

export type SurepassAnswer = PartnerAnswer;

export class SurepassHttp {
  private http: PartnerHttp;
  private authorization: string;

  constructor(baseUrl: string, token: string, connectTimeoutMs: number) {
    // A comparator answer is a few hundred bytes; anything far larger is not one.
    this.http = new PartnerHttp({ baseUrl, partner: 'Surepass', connectTimeoutMs, maxBodyBytes: 64 * 1024, answerIs: 'a comparison', readTimeoutMessage: 'Surepass did not answer in time' });
    this.authorization = `Bearer ${token}`;
  }

  /** POSTs a form, answered whatever its HTTP status; throws Unsent or Unanswered. */
  postForm(path: string, fields: Record<string, string>, timeoutMs: number): Promise<SurepassAnswer> {
    const form = newFormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return this.http.call('POST', path, timeoutMs, { authorization: this.authorization }, form);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
