// Owns the bearer tokens of the Setu emulators: HS256 JWTs (the documented sample starts
// `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`, i.e. {"alg":"HS256","typ":"JWT"}) signed with a per-process key.
// [G] lifetime: the prepaid token's expiry is undocumented, so it is a setting; `expireAll` (POST
// /_sim/tokens/expire) invalidates every token issued so far, to test a client's re-login on 401.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

export class TokenIssuer {
  private readonly key = randomBytes(32);
  private generation = 0;
  issued = 0;

  constructor(private readonly ttlSeconds: () => number) {}

  issue(sub: string, scope: string): { token: string; expiresIn: number } {
    const iat = Math.floor(Date.now() / 1000);
    const expiresIn = this.ttlSeconds();
    const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub, scope, iat, exp: iat + expiresIn, gen: this.generation, jti: randomUUID() }))}`;
    this.issued++;
    return { token: `${head}.${this.mac(head)}`, expiresIn };
  }

  /** True for a token this process issued, unexpired and not invalidated by expireAll. */
  verify(token: string): boolean {
    const parts = token.split('.');
    if (parts.length !== 3) return false;
    const want = Buffer.from(this.mac(`${parts[0]}.${parts[1]}`));
    const got = Buffer.from(parts[2]!);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return false;
    try {
      const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp: number; gen: number };
      return claims.gen === this.generation && claims.exp > Date.now() / 1000;
    } catch {
      return false;
    }
  }

  expireAll(): void {
    this.generation++;
  }

  private mac(s: string): string {
    return createHmac('sha256', this.key).update(s).digest('base64url');
  }
}

/** `Authorization: Bearer <token>` → the token, or undefined. */
export function bearer(h: string | undefined): string | undefined {
  const m = /^Bearer (\S+)$/.exec(h ?? '');
  return m?.[1];
}
