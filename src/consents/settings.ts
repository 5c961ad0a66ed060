// Owns an account's consent setting (CONTRACT §13): whether its live calls must cite a consent_id.
// Off by default; the gate (gate.ts) reads it through a cache of SANGAM_AUTH_CACHE_MS.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';

export interface ConsentSettings {
  require_consent_live: boolean;
}

/** Errors: not_found (no such account). */
export async function readConsentSettings(db: Db, accountId: string): Promise<ConsentSettings> {
  const row = await db.selectFrom('accounts').select('require_consent_live').where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return { require_consent_live: row.require_consent_live };
}

/** Errors: not_found (no such account). */
export async function writeConsentSettings(db: Db, accountId: string, requireLive: boolean): Promise<ConsentSettings> {
  const row = await db.updateTable('accounts').set({ require_consent_live: requireLive }).where('id', '=', accountId).returning('require_consent_live').executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return { require_consent_live: row.require_consent_live };
}
