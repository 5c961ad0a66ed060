// Owns the DigiLocker connector's HTTP calls: the shared partner transport (partner-http.ts) with a
// deadline on the whole call, form and JSON bodies, and the classification of its failures. Every call this
// connector makes is either a read (the eAadhaar XML) or an OAuth step that changes nothing a retry
// would double, so any failure before an answer is a PartnerError: the core fails the transaction with
// a 502 and charges nothing, and the client may simply try again.
import { PartnerError } from '../connector.js';
import { PartnerHttp, TooLarge, Unanswered, Unsent } from '../partner-http.js';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface CallSpec {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A JSON body (application/json); never with `form`. */
  json?: Record<string, unknown>;
  timeoutMs: number;
}

export class DigilockerHttp {
  private http: PartnerHttp;

  constructor(connectTimeoutMs: number) {
    // An eAadhaar XML with its photo weighs tens of kilobytes; anything far larger is not one.
    this.http = new PartnerHttp({ baseUrl: '', partner: 'DigiLocker', connectTimeoutMs, maxBodyBytes: 2 * 1024 * 1024, answerIs: 'an eAadhaar document', wholeCallDeadline: true });
  }

  /**
   * One call, answered whatever its HTTP status. Throws PartnerError('timeout') when DigiLocker could
   * not be reached or did not answer within the deadline, PartnerError('unavailable') for any other
   * transport failure or an oversized body.
   */
  async call(spec: CallSpec): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: '*/*', ...spec.headers };
    if (spec.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (spec.json) headers['content-type'] = 'application/json';
    const body = spec.form ? new URLSearchParams(spec.form).toString() : spec.json ? JSON.stringify(spec.json) : undefined;
    try {
      const a = await this.http.call(spec.method, spec.url, spec.timeoutMs, headers, body);
      return { status: a.status, headers: a.headers, body: a.raw };
    } catch (err) {
      throw classify(err);
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function classify(err: unknown): unknown {
  if (err instanceof Unsent) return new PartnerError(err.timedOut ? 'timeout' : 'unavailable', err.timedOut ? 'DigiLocker did not answer in time; try again' : 'DigiLocker could not be reached; try again');
  if (!(err instanceof Unanswered)) return err;
  if (err.timedOut) return new PartnerError('timeout', 'DigiLocker did not answer in time; try again');
  if (err instanceof TooLarge) return new PartnerError('unavailable', `${err.message}; nothing was used`);
  return new PartnerError('unavailable', 'The connection to DigiLocker failed; try again');
}

/** One header's value; a repeated header is refused as a whole rather than guessed at. */
export function headerValue(headers: HttpAnswer['headers'], name: string): string | undefined | null {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v.length === 1 ? v[0] : null;
  return v;
}
