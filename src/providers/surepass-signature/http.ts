// Owns the surepass-signature connector's HTTP call: one undici Agent with keep-alive, Surepass's
// `Authorization: Bearer <token>` (PARTNERS.md §6.1), a multipart/form-data body, a deadline, a cap on
// an answer's size, and whether a failed call timed out. Messages never carry the token or a body.
import { Agent, errors, FormData, request } from 'undici';

/** A comparator answer is a few hundred bytes; anything far larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** No answer came back: never reached (`sent` false) or no answer in time / connection lost. */
export class NoReply extends Error {
  constructor(
    readonly sent: boolean,
    readonly timedOut: boolean,
  ) {
    super(!sent ? (timedOut ? 'Surepass could not be reached in time' : 'Surepass is unreachable') : timedOut ? 'Surepass did not answer in time' : 'Surepass closed the connection without an answer');
  }
}

export interface SurepassAnswer {
  status: number;
  /** The parsed JSON body, or null when it was not JSON. */
  json: unknown;
}

export class SurepassHttp {
  private agent: Agent;
  private authorization: string;

  constructor(
    private baseUrl: string,
    token: string,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 30_000 });
    this.authorization = `Bearer ${token}`;
  }

  /** POSTs a form, answered whatever its HTTP status; throws NoReply. */
  async postForm(path: string, fields: Record<string, string>, timeoutMs: number): Promise<SurepassAnswer> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    try {
      const res = await request(`${this.baseUrl}${path}`, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { accept: 'application/json', authorization: this.authorization },
        body: form,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          return { status: res.statusCode, json: null };
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
      if (err instanceof errors.ConnectTimeoutError) throw new NoReply(false, true);
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
      if (UNSENT.has(code)) throw new NoReply(false, false);
      throw new NoReply(true, err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
