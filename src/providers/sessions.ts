// Owns the PartnerSessions store connectors are lent (connector.ts): small JSON values by partner and
// key, with an expiry, in the partner_sessions table. Values are encrypted with AES-256-GCM under a
// server secret (server_secrets 'partner_sessions'), with the partner and key as associated data, so a
// database dump holds no OAuth token or PKCE verifier, and a value cannot be moved to another key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { PartnerSessions } from './connector.js';

export class PartnerSessionStore {
  private key: Buffer;

  constructor(
    private db: Db,
    secret: string,
  ) {
    this.key = Buffer.from(secret, 'base64url').subarray(0, 32);
    if (this.key.length !== 32) throw new Error('partner session secret must be 32 bytes');
  }

  private seal(partner: string, key: string, value: unknown): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(`${partner}\n${key}`));
    const body = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
  }

  private open<T>(partner: string, key: string, sealed: string): T {
    const raw = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(`${partner}\n${key}`));
    d.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')) as T;
  }

  /** The sessions of one partner. */
  for(partner: string): PartnerSessions {
    return {
      get: async <T>(key: string) => {
        const row = await this.db
          .selectFrom('partner_sessions')
          .select('value')
          .where('partner', '=', partner)
          .where('key', '=', key)
          .where('expires_at', '>', new Date())
          .executeTakeFirst();
        return row ? this.open<T>(partner, key, row.value) : undefined;
      },
      put: async (key, value, ttlSeconds) => {
        const row = { partner, key, value: this.seal(partner, key, value), expires_at: new Date(Date.now() + ttlSeconds * 1000) };
        await this.db
          .insertInto('partner_sessions')
          .values(row)
          .onConflict((oc) => oc.columns(['partner', 'key']).doUpdateSet({ value: row.value, expires_at: row.expires_at }))
          .execute();
      },
      delete: async (key) => {
        await this.db.deleteFrom('partner_sessions').where('partner', '=', partner).where('key', '=', key).execute();
      },
    };
  }

  /** Deletes expired sessions; returns how many. */
  async purge(): Promise<number> {
    const r = await this.db.deleteFrom('partner_sessions').where('expires_at', '<=', new Date()).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
