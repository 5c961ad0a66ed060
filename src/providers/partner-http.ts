// Owns the HTTP transport every real-partner connector shares, and the only place a partner's answer
// body is read: one undici Agent with keep-alive, a deadline per call, a cap on an answer's size, the
// body kept as bytes and parsed as JSON when it is JSON, and the one distinction every connector's error
// classification rests on — whether a failed call can have reached the partner (Unsent: it cannot;
// Unanswered: it may have acted). A connector adds its own authentication headers and body encoding
// (JSON, a form, multipart); messages name the partner and never carry credentials or a body. Each call
// is a client span `partner HTTP <method>` (the partner, the method, the answer's status; never the path,
// a query string, a header or a body: tracing/).
import type { Agent, FormData } from 'undici';
import { undici } from '../undici.js';
import { PartnerError } from './connector.js';
import { inSpan, SpanKind } from '../tracing/index.js';

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
export class Unanswered extends Error {
  constructor(
    message: string,
    /** No answer within the deadline (rather than a broken connection or an oversized answer). */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** The answer came, but far larger than any the partner documents: it was not read. */
export class TooLarge extends Unanswered {}

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
  /** The body exactly as received (a signed document is verified over these bytes). */
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export interface PartnerHttpOptions {
  /** Prefixed to every path; '' when the connector calls absolute URLs (a login on another host). */
  baseUrl: string;
  /** The partner's name in messages: "RazorpayX", "Cashfree". */
  partner: string;
  connectTimeoutMs: number;
  /** The largest answer accepted, and what the answer is ("a payout"), for the message past it. */
  maxBodyBytes: number;
  answerIs: string;
  /** The message of a timeout after sending (default: the transport's own). */
  readTimeoutMessage?: string;
  /** Connections kept per origin (default: as many as the calls need). */
  connections?: number;
  /** The deadline bounds the whole call, not each wait for headers and for body separately. */
  wholeCallDeadline?: boolean;
}

/** A body: a string is JSON unless the headers say otherwise; FormData goes as multipart. */
export type PartnerBody = string | FormData;

/** A multipart body for `call` (undici's FormData, which its request sends as multipart/form-data). */
export const newFormData = (): FormData => new (undici().FormData)();

export class PartnerHttp {
  private agentMade: Agent | null = null;

  constructor(private o: PartnerHttpOptions) {}

  /** The client, made (and undici loaded) at the first call: a server without live partners never needs it. */
  private get agent(): Agent {
    return (this.agentMade ??= new (undici().Agent)({ connect: { timeout: this.o.connectTimeoutMs }, keepAliveTimeout: 30_000, ...(this.o.connections ? { connections: this.o.connections } : {}) }));
  }

  /** One call, answered whatever its HTTP status; throws Unsent or Unanswered. */
  call(method: 'GET' | 'POST', path: string, timeoutMs: number, headers: Record<string, string>, body?: PartnerBody): Promise<PartnerAnswer> {
    return inSpan(`partner HTTP ${method}`, { 'sangam.partner': this.o.partner, 'http.request.method': method }, async (span) => {
      const answer = await this.send(method, path, timeoutMs, headers, body);
      span.setAttribute('http.response.status_code', answer.status);
      return answer;
    }, { kind: SpanKind.CLIENT });
  }

  private async send(method: 'GET' | 'POST', path: string, timeoutMs: number, headers: Record<string, string>, body?: PartnerBody): Promise<PartnerAnswer> {
    try {
      const res = await undici().request(`${this.o.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(this.o.wholeCallDeadline ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
      });
      const raw = await this.read(res.body);
      return { status: res.statusCode, json: parseJson(raw), raw, headers: res.headers };
    } catch (err) {
      throw this.classify(err);
    }
  }

  close(): Promise<void> {
    return this.agentMade?.close() ?? Promise.resolve();
  }

  /** The whole body, refused past maxBodyBytes. */
  private async read(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.o.maxBodyBytes) {
        body.destroy();
        throw new TooLarge(`${this.o.partner} sent an answer far larger than ${this.o.answerIs}`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  private classify(err: unknown): Error {
    if (err instanceof Unanswered) return err;
    const { errors } = undici();
    if (err instanceof errors.ConnectTimeoutError) return new Unsent(this.o.partner, true);
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
    if (UNSENT.has(code)) return new Unsent(this.o.partner, false);
    // A read timeout, a reset or a closed socket after the request went out: it may have arrived.
    const name = (err as { name?: string }).name;
    const timedOut = err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || name === 'TimeoutError' || name === 'AbortError';
    if (this.o.readTimeoutMessage === undefined) return new Unanswered((err as Error).message, timedOut);
    return new Unanswered(timedOut ? this.o.readTimeoutMessage : `${this.o.partner} closed the connection without an answer`, timedOut);
  }
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}
