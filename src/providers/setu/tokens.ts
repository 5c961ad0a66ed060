// Owns the bearer-token cache both Setu products need (prepaid recharge and BBPS): a token from a login
// endpoint, fetched once for every concurrent caller, kept until shortly before it expires, and dropped
// when a 401 refuses it. It knows no Setu field names: the login and its answer are the caller's.

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

/** The token of one Setu product. A login that fails is the login's own error (a PartnerError: a login moves no money). */
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
