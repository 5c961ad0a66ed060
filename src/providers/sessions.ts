// Owns the PartnerSessions store connectors are lent (connector.ts): small JSON values by partner and
// key, with an expiry, in the partner_sessions table. Values are encrypted with AES-256-GCM under a
// server secret (server_secrets 'partner_sessions'), with the partner and key as associated data, so a
// database dump holds no OAuth token or PKCE verifier, and a value cannot be moved to another key.
import { sql } from 'kysely';
import { Sealer } from '../db/sealed.js';
import type { Db } from '../db/client.js';
import type { PartnerSessions } from './connector.js';

export class PartnerSessionStore {
  private sealer: Sealer;

  constructor(
    private db: Db,
    secret: string,
  ) {
    this.sealer = new Sealer(secret, 'partner session');
  }

  private seal(partner: string, key: string, value: unknown): string {
    return this.sealer.seal(`${partner}\n${key}`, value);
  }

  private open<T>(partner: string, key: string, sealed: string): T {
    return this.sealer.open<T>(`${partner}\n${key}`, sealed);
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
      keys: async (prefix) => {
        const rows = await this.db
          .selectFrom('partner_sessions')
          .select('key')
          .where('partner', '=', partner)
          .where(sql<boolean>`starts_with(key, ${prefix})`)
          .where('expires_at', '>', new Date())
          .orderBy('key')
          .execute();
        return rows.map((r) => r.key);
      },
    };
  }

  /** Deletes expired sessions; returns how many. */
  async purge(): Promise<number> {
    const r = await this.db.deleteFrom('partner_sessions').where('expires_at', '<=', new Date()).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
