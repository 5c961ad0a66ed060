// Owns the cashfree-verification connector's HTTP calls: one undici Agent with keep-alive, Cashfree's
// header authentication (`x-client-id`, `x-client-secret`, `x-api-version`, PARTNERS.md §5.1), our
// transaction id as `x-request-id` (Cashfree echoes it; it ties their logs to ours), a deadline per
// call, a cap on an answer's size, and the one distinction the error classification rests on: whether a
// failed call can have reached Cashfree. Messages never carry the credentials or a body.
import { Agent, errors, request } from 'undici';

/** A penny-drop or error body is about a kilobyte; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

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
}

export class CashfreeVerificationHttp {
  private agent: Agent;

  constructor(
    private baseUrl: string,
    private auth: { clientId: string; clientSecret: string; apiVersion: string },
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
          'x-client-id': this.auth.clientId,
          'x-client-secret': this.auth.clientSecret,
          'x-api-version': this.auth.apiVersion,
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
          throw new Unanswered('Cashfree sent an answer far larger than a penny drop');
        }
        chunks.push(chunk as Buffer);
      }
      let json: unknown = null;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = null;
      }
      return { status: res.statusCode, json };
    } catch (err) {
      if (err instanceof Unanswered) throw err;
      if (err instanceof errors.ConnectTimeoutError) throw new Unsent(true);
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
      if (UNSENT.has(code)) throw new Unsent(false);
      // A read timeout, a reset or a closed socket after the request went out: it may have arrived.
      throw new Unanswered(err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError ? 'Cashfree did not answer in time' : 'Cashfree closed the connection without an answer');
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
