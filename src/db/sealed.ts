// Owns sealing small values kept at rest (partner sessions, a pending transaction's notes): AES-256-GCM
// under a 32-byte server secret, with associated data naming where the value belongs, so a database
// dump holds no plain value and a value cannot be moved to another row.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class Sealer {
  private key: Buffer;

  /** Errors: throws when the secret (base64url) is not 32 bytes. */
  constructor(secret: string, what: string) {
    this.key = Buffer.from(secret, 'base64url').subarray(0, 32);
    if (this.key.length !== 32) throw new Error(`${what} secret must be 32 bytes`);
  }

  seal(aad: string, value: unknown): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad));
    const body = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
  }

  /** Errors: throws when the value was sealed under another key or associated data, or altered. */
  open<T>(aad: string, sealed: string): T {
    const raw = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')) as T;
  }
}
