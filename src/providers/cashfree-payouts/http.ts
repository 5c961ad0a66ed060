// Owns the Cashfree Payouts connector's HTTP calls: one undici Agent with keep-alive, the V2 headers
// (`x-client-id`, `x-client-secret`, `x-api-version`, `x-request-id`; PARTNERS.md §3.1), a deadline per
// call, a cap on an answer's size, and the one distinction the connector's error classification rests
// on: whether a failed call can have reached Cashfree. Messages never carry the credentials.
import { Agent, errors, request } from 'undici';

/** A transfer or error body is a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Errors that mean the request never left this machine or never reached Cashfree. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The call did not reach Cashfree: nothing can have happened there. */
export class Unsent extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'Cashfree could not be reached in time' : 'Cashfree is unreachable');
  }
}

/** The request was (or may have been) sent and no full answer came back: Cashfree may have acted. */
export class Unanswered extends Error {}

export interface CfAnswer {
  status: number;
  /** The parsed JSON body, or null when it was not JSON. */
  json: unknown;
  /** [P] seconds to wait after a 429 (`x-ratelimit-retry`), when given. */
  retryAfterS: number | null;
}

export interface CfCredentials {
  clientId: string;
  clientSecret: string;
  apiVersion: string;
}

export class CashfreeHttp {
  private agent: Agent;

  constructor(
    private baseUrl: string,
    private creds: CfCredentials,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 30_000 });
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  async call(method: 'GET' | 'POST', path: string, timeoutMs: number, requestId: string, body?: string): Promise<CfAnswer> {
    try {
      const res = await request(`${this.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: {
          accept: 'application/json',
          'x-client-id': this.creds.clientId,
          'x-client-secret': this.creds.clientSecret,
          'x-api-version': this.creds.apiVersion,
          'x-request-id': requestId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          throw new Unanswered('Cashfree sent an answer far larger than a transfer');
        }
        chunks.push(chunk as Buffer);
      }
      let json: unknown = null;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = null;
      }
      const retry = Number(res.headers['x-ratelimit-retry']);
      return { status: res.statusCode, json, retryAfterS: Number.isInteger(retry) && retry > 0 ? retry : null };
    } catch (err) {
      if (err instanceof Unanswered) throw err;
      if (err instanceof errors.ConnectTimeoutError) throw new Unsent(true);
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
      if (UNSENT.has(code)) throw new Unsent(false);
      // A read timeout, a reset or a closed socket after the request went out: it may have arrived.
      throw new Unanswered((err as Error).message);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
