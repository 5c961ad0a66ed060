// Owns the HTTP transport every real-partner connector shares: one undici Agent with keep-alive, a
// deadline per call, a cap on an answer's size, the body parsed as JSON when it is JSON, and the one
// distinction every connector's error classification rests on — whether a failed call can have reached
// the partner (Unsent: it cannot; Unanswered: it may have acted). A connector adds its own
// authentication headers; messages name the partner and never carry credentials or a body.
import { Agent, errors, request } from 'undici';
import { PartnerError } from './connector.js';

/** Errors that mean the request never left this machine or never reached the partner. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The call did not reach the partner: nothing can have happened there. */
export class Unsent extends Error {
  constructor(
    partner: string,
    readonly timedOut: boolean,
  ) {
    super(timedOut ? `${partner} could not be reached in time` : `${partner} is unreachable`);
  }
}

/** The request was (or may have been) sent and no full answer came back: the partner may have acted. */
export class Unanswered extends Error {}

/**
 * A status enquiry through the transport: a call that failed in transport (unreachable, or no full
 * answer) is a PartnerError, timeout or unavailable, which the reconciler answers by asking again later.
 */
export async function enquiry<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Unsent || err instanceof Unanswered) throw new PartnerError(err instanceof Unsent && err.timedOut ? 'timeout' : 'unavailable', `status enquiry: ${err.message}`);
    throw err;
  }
}

export interface PartnerAnswer {
  status: number;
  /** The parsed JSON body, or null when it was not JSON. */
  json: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface PartnerHttpOptions {
  baseUrl: string;
  /** The partner's name in messages: "RazorpayX", "Cashfree". */
  partner: string;
  connectTimeoutMs: number;
  /** The largest answer accepted, and what the answer is ("a payout"), for the message past it. */
  maxBodyBytes: number;
  answerIs: string;
  /** The message of a timeout after sending (default: the transport's own). */
  readTimeoutMessage?: string;
}

export class PartnerHttp {
  private agent: Agent;

  constructor(private o: PartnerHttpOptions) {
    this.agent = new Agent({ connect: { timeout: o.connectTimeoutMs }, keepAliveTimeout: 30_000 });
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  async call(method: 'GET' | 'POST', path: string, timeoutMs: number, headers: Record<string, string>, body?: string): Promise<PartnerAnswer> {
    try {
      const res = await request(`${this.o.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.o.maxBodyBytes) {
          res.body.destroy();
          throw new Unanswered(`${this.o.partner} sent an answer far larger than ${this.o.answerIs}`);
        }
        chunks.push(chunk as Buffer);
      }
      let json: unknown = null;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = null;
      }
      return { status: res.statusCode, json, headers: res.headers };
    } catch (err) {
      if (err instanceof Unanswered) throw err;
      if (err instanceof errors.ConnectTimeoutError) throw new Unsent(this.o.partner, true);
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
      if (UNSENT.has(code)) throw new Unsent(this.o.partner, false);
      // A read timeout, a reset or a closed socket after the request went out: it may have arrived.
      if (this.o.readTimeoutMessage === undefined) throw new Unanswered((err as Error).message);
      const timedOut = err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError;
      throw new Unanswered(timedOut ? this.o.readTimeoutMessage : `${this.o.partner} closed the connection without an answer`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
