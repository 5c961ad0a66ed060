// Owns an account's verification reuse window (CONTRACT §14): how long a successful vpa-verification
// of a VPA stands in for the name check of a UPI payout to it (operations/vpa-verification/reuse.ts),
// instead of a new validation. Unset is the documented default, 24 h; 0 never reuses; 30 days at most.
// Set with `sangam accounts verification-reuse` or on the console's name-match page.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';

export const DEFAULT_REUSE_WINDOW_S = 24 * 3600;
/** The longest window: a holder's name a month old is as far as a payout should lean on. */
export const MAX_REUSE_WINDOW_S = 30 * 24 * 3600;

export interface VerificationReuseSetting {
  reuse_window_s: number;
}

/** Errors: not_found (no such account). */
export async function readVerificationReuse(db: Db, accountId: string): Promise<VerificationReuseSetting> {
  const row = await db.selectFrom('accounts').select('verification_reuse_window_s').where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return { reuse_window_s: row.verification_reuse_window_s ?? DEFAULT_REUSE_WINDOW_S };
}

/** null: back to the default. Errors: not_found (no such account), validation (`reuse_window_s`). */
export async function writeVerificationReuse(db: Db, accountId: string, windowS: number | null): Promise<VerificationReuseSetting> {
  if (windowS !== null && (!Number.isSafeInteger(windowS) || windowS < 0 || windowS > MAX_REUSE_WINDOW_S)) {
    throw ApiError.validation([{ field: 'reuse_window_s', message: `reuse_window_s must be a whole number of seconds from 0 to ${MAX_REUSE_WINDOW_S} (30 days)` }]);
  }
  const row = await db.updateTable('accounts').set({ verification_reuse_window_s: windowS }).where('id', '=', accountId).returning('id').executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return readVerificationReuse(db, accountId);
}
