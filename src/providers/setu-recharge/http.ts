// Owns the HTTP plumbing of the Setu connectors (prepaid recharge here, BBPS DTH in ../setu-dth/, which
// imports it: two Setu products, one way of calling them): one undici Agent with keep-alive, a deadline
// per call, a cap on an answer's size, the one distinction the error classification rests on — whether
// a failed call can have reached Setu — and the bearer-token cache both products need (a token from a
// login endpoint, kept until shortly before it expires, dropped and fetched again on a 401). It knows no
// Setu field names: the token request and answer are the caller's. Messages never carry credentials.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Agent, errors, request } from 'undici';
import { PartnerError } from '../connector.js';

/** Every Setu answer is a few kilobytes (a plan list a few tens); anything far larger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Errors that mean the request never left this machine or never reached Setu. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The call did not reach Setu: nothing can have happened there. */
export class Unsent extends Error {
  constructor(
    readonly timedOut: boolean,
    label: string,
  ) {
    super(timedOut ? `${label} could not be reached in time` : `${label} is unreachable`);
  }
}

/** The request was (or may have been) sent and no full answer came back: Setu may have acted. */
export class Unanswered extends Error {}

export interface Answer {
  status: number;
  /** The parsed JSON body, or null when it was not JSON. */
  json: unknown;
}

export class SetuHttp {
  private agent: Agent;

  constructor(
    private label: string,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 30_000 });
  }

  /** One call to an absolute URL, answered whatever its HTTP status; throws Unsent or Unanswered. */
  async call(method: 'GET' | 'POST', url: string, timeoutMs: number, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    try {
      const res = await request(url, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          throw new Unanswered(`${this.label} sent an answer far larger than any it documents`);
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
      if (err instanceof errors.ConnectTimeoutError) throw new Unsent(true, this.label);
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
      if (UNSENT.has(code)) throw new Unsent(false, this.label);
      // A read timeout, a reset or a closed socket after the request went out: it may have arrived.
      throw new Unanswered(`${this.label} did not answer: ${(err as Error).message}`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A token and when it stops being usable (ms since the epoch). */
export interface IssuedToken {
  token: string;
  expiresAtMs: number;
}

/** Renew this long before the stated expiry (or a tenth of a short lifetime), so a token never dies on its way. */
const EXPIRY_MARGIN_MS = 60_000;

interface Held extends IssuedToken {
  renewAtMs: number;
}

/**
 * The bearer token of one Setu product, fetched once for every concurrent caller and kept until shortly
 * before it expires. A login that fails is a PartnerError: a login moves no money.
 */
export class TokenCache {
  private current: Promise<Held> | null = null;

  constructor(private login: () => Promise<IssuedToken>) {}

  async get(): Promise<string> {
    const p = this.current;
    if (p) {
      const held = await p.catch(() => null);
      if (held && held.renewAtMs > Date.now()) return held.token;
      if (this.current === p) this.current = null;
    }
    this.current ??= this.fetch();
    const mine = this.current;
    try {
      return (await mine).token;
    } catch (err) {
      if (this.current === mine) this.current = null;
      throw err;
    }
  }

  /** Drops the token a 401 refused (unless another caller already replaced it). */
  async invalidate(token: string): Promise<void> {
    const p = this.current;
    const held = await p?.catch(() => null);
    if (this.current === p && (!held || held.token === token)) this.current = null;
  }

  private async fetch(): Promise<Held> {
    const at = Date.now();
    const t = await this.login();
    return { ...t, renewAtMs: t.expiresAtMs - Math.min(EXPIRY_MARGIN_MS, (t.expiresAtMs - at) / 10) };
  }
}

/**
 * When a JWT says it expires (its `exp` claim), read without verifying — only to know when to renew;
 * Setu verifies it. Null when the token is not a JWT with an `exp`.
 */
export function jwtExpiryMs(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const exp = (JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A transport failure of a call that moves no money (a login, a lookup, a status enquiry): a PartnerError. */
export function unreachable(err: unknown, what: string): never {
  if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${what}: ${err.message}`);
  if (err instanceof Unanswered) throw new PartnerError('timeout', `${what}: ${err.message}`);
  throw err;
}

/** The shared secret of an unsigned webhook URL, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
