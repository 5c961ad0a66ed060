// Owns the DigiLocker connector's HTTP calls: one undici Agent, a deadline per call, a cap on what a
// body may weigh, and the classification of transport failures. Every call this connector makes is
// either a read (the eAadhaar XML) or an OAuth step that changes nothing a retry would double, so any
// failure before an answer is a PartnerError: the core fails the transaction with a 502 and charges
// nothing, and the client may simply try again.
import { Agent, errors, request } from 'undici';
import { PartnerError } from '../connector.js';

/** An eAadhaar XML with its photo weighs tens of kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

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
  timeoutMs: number;
}

const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

export class DigilockerHttp {
  private agent: Agent;

  constructor(connectTimeoutMs: number) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 30_000 });
  }

  /**
   * One call, answered whatever its HTTP status. Throws PartnerError('timeout') when DigiLocker could
   * not be reached or did not answer within the deadline, PartnerError('unavailable') for any other
   * transport failure or an oversized body.
   */
  async call(spec: CallSpec): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: '*/*', ...spec.headers };
    let body: string | undefined;
    if (spec.form) {
      body = new URLSearchParams(spec.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    try {
      const res = await request(spec.url, {
        method: spec.method,
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: spec.timeoutMs,
        bodyTimeout: spec.timeoutMs,
        signal: AbortSignal.timeout(spec.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          throw new PartnerError('unavailable', 'DigiLocker sent an answer far larger than an eAadhaar document; nothing was used');
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
    } catch (err) {
      throw classify(err);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function classify(err: unknown): PartnerError {
  if (err instanceof PartnerError) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (
    err instanceof errors.ConnectTimeoutError ||
    err instanceof errors.HeadersTimeoutError ||
    err instanceof errors.BodyTimeoutError ||
    e.name === 'TimeoutError' ||
    e.name === 'AbortError'
  ) {
    return new PartnerError('timeout', 'DigiLocker did not answer in time; try again');
  }
  if (UNSENT.has(e.code ?? '') || UNSENT.has(e.cause?.code ?? '')) return new PartnerError('unavailable', 'DigiLocker could not be reached; try again');
  return new PartnerError('unavailable', 'The connection to DigiLocker failed; try again');
}

/** One header's value; a repeated header is refused as a whole rather than guessed at. */
export function headerValue(headers: HttpAnswer['headers'], name: string): string | undefined | null {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v.length === 1 ? v[0] : null;
  return v;
}
