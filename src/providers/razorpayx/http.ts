// Owns the RazorpayX connector's HTTP calls: one undici Agent with keep-alive, HTTP Basic auth
// (`Basic base64(KEY_ID:KEY_SECRET)`, PARTNERS.md §2.1), a deadline per call, a cap on an answer's
// size, and the one distinction the connector's error classification rests on: whether a failed call
// can have reached RazorpayX. Messages never carry the credentials.
import { Agent, errors, request } from 'undici';

/** A payout or error body is a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Errors that mean the request never left this machine or never reached RazorpayX. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The call did not reach RazorpayX: nothing can have happened there. */
export class Unsent extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'RazorpayX could not be reached in time' : 'RazorpayX is unreachable');
  }
}

/** The request was (or may have been) sent and no full answer came back: RazorpayX may have acted. */
export class Unanswered extends Error {}

export interface RzpAnswer {
  status: number;
  /** The parsed JSON body, or null when it was not JSON. */
  json: unknown;
}

export class RazorpayxHttp {
  private agent: Agent;
  private authorization: string;

  constructor(
    private baseUrl: string,
    keyId: string,
    keySecret: string,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 30_000 });
    this.authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`, 'utf8').toString('base64')}`;
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  async call(method: 'GET' | 'POST', path: string, timeoutMs: number, body?: string, headers: Record<string, string> = {}): Promise<RzpAnswer> {
    try {
      const res = await request(`${this.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', authorization: this.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
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
          throw new Unanswered('RazorpayX sent an answer far larger than a payout');
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
      throw new Unanswered((err as Error).message);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
