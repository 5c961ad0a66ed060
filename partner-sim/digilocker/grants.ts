// Owns the emulator's OAuth state, in memory: consent requests waiting on the page, authorization codes,
// and the access/refresh tokens of each grant. One grant = one user's consent to one client; revoking any
// of its tokens (or replaying its code) ends all of them, as §1.5 says DigiLocker does ("other tokens based
// on the same authorisation grant").
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Resident } from './residents.js';

export interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scope: string;
  consentValidTill: number | null;
  expiresAt: number;
}

export interface Grant {
  id: string;
  clientId: string;
  resident: Resident;
  scope: string;
  /** Epoch seconds (§1.4 `consent_valid_till`). */
  consentValidTill: number;
  revoked: boolean;
}

interface Code {
  grant: Grant;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: number;
  used: boolean;
}

interface Token {
  grant: Grant;
  kind: 'access' | 'refresh';
  expiresAt: number; // Infinity for refresh tokens [G: lifetime undocumented]
}

export type Redeemed =
  | { ok: true; grant: Grant }
  | { ok: false; error: 'invalid_grant' | 'invalid_request'; description: string };

// The spec's examples are 40-hex tokens and codes (`bc125c21…`, `ca82123a…`).
const hex40 = () => randomBytes(20).toString('hex');

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))), compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const got = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const want = Buffer.from(challenge);
  return got.length === want.length && timingSafeEqual(got, want);
}

export class Grants {
  private requests = new Map<string, ConsentRequest>();
  private codes = new Map<string, Code>();
  private tokens = new Map<string, Token>();

  constructor(private readonly codeTtlMs: number, private readonly tokenTtlSeconds: number) {}

  openRequest(r: Omit<ConsentRequest, 'expiresAt'>): string {
    const id = randomBytes(16).toString('hex');
    this.requests.set(id, { ...r, expiresAt: Date.now() + 15 * 60_000 });
    return id;
  }

  /** Takes a consent request off the page; undefined when unknown, expired or already decided. */
  takeRequest(id: string): ConsentRequest | undefined {
    const r = this.requests.get(id);
    this.requests.delete(id);
    return r && r.expiresAt > Date.now() ? r : undefined;
  }

  issueCode(req: ConsentRequest, resident: Resident): string {
    const grant: Grant = {
      id: hex40(),
      clientId: req.clientId,
      resident,
      scope: req.scope,
      // [G] when the authorize URL gives no consent_valid_till, assume consent for 30 days.
      consentValidTill: req.consentValidTill ?? Math.floor(Date.now() / 1000) + 30 * 86_400,
      revoked: false,
    };
    const code = hex40();
    this.codes.set(code, { grant, redirectUri: req.redirectUri, codeChallenge: req.codeChallenge, expiresAt: Date.now() + this.codeTtlMs, used: false });
    return code;
  }

  /**
   * Redeems a code. [G] Any attempt with a known code for the right client consumes it, even one that fails
   * the PKCE check, and a replayed code revokes the tokens already issued from it (RFC 6749 §4.1.2).
   */
  redeem(code: string, clientId: string, redirectUri: string | undefined, verifier: string | undefined): Redeemed {
    const c = this.codes.get(code);
    if (!c || c.grant.clientId !== clientId) return { ok: false, error: 'invalid_grant', description: 'The authorization code is invalid' };
    if (c.used) {
      c.grant.revoked = true;
      return { ok: false, error: 'invalid_grant', description: 'The authorization code has already been used' };
    }
    c.used = true;
    if (c.expiresAt <= Date.now()) return { ok: false, error: 'invalid_grant', description: 'The authorization code has expired' };
    if (!redirectUri) return { ok: false, error: 'invalid_request', description: 'The redirect_uri parameter is required' };
    if (redirectUri !== c.redirectUri) return { ok: false, error: 'invalid_grant', description: 'The redirect_uri does not match the one used to authorize' };
    if (!verifier) return { ok: false, error: 'invalid_request', description: 'The code_verifier parameter is required' };
    if (!pkceMatches(verifier, c.codeChallenge)) return { ok: false, error: 'invalid_grant', description: 'The code_verifier does not match the code_challenge' };
    return { ok: true, grant: c.grant };
  }

  issueTokens(grant: Grant, refreshToken?: string): { accessToken: string; refreshToken: string; expiresIn: number } {
    const accessToken = hex40();
    this.tokens.set(accessToken, { grant, kind: 'access', expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    const refresh = refreshToken ?? hex40();
    if (!refreshToken) this.tokens.set(refresh, { grant, kind: 'refresh', expiresAt: Infinity });
    return { accessToken, refreshToken: refresh, expiresIn: this.tokenTtlSeconds };
  }

  /** The live grant behind a token of `kind`, or undefined when unknown, expired or revoked. */
  lookup(token: string, kind: 'access' | 'refresh'): Grant | undefined {
    const t = this.tokens.get(token);
    if (!t || t.kind !== kind || t.grant.revoked || t.expiresAt <= Date.now()) return undefined;
    return t.grant;
  }

  /**
   * Revokes the grant behind `token`, access or refresh alike; false when no such token. §1.5's
   * token_type_hint only narrows DigiLocker's search, so it cannot change the outcome here.
   */
  revoke(token: string, clientId: string): boolean {
    const t = this.tokens.get(token);
    if (!t || t.grant.clientId !== clientId) return false;
    t.grant.revoked = true;
    return true;
  }
}
