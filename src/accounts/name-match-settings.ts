// Owns an account's name-match settings (CONTRACT §11): the two thresholds that turn a score into a
// decision, and what a payout does when its beneficiary name is only a review ('pay', or 'hold': fail
// it, nothing paid). Unset values are the documented defaults (DEFAULT_THRESHOLDS, set from the
// labelled set in docs/NAME-MATCH.md; hold, because paying a name nobody approved is the costlier
// mistake). Reads are cached for SANGAM_AUTH_CACHE_MS, so a change applies within 1 s everywhere.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { DEFAULT_THRESHOLDS, type NameMatchThresholds } from '../namematch/index.js';
import { TtlCache } from '../access/ttl-cache.js';

export type OnReview = 'pay' | 'hold';

export interface NameMatchSettings {
  thresholds: NameMatchThresholds;
  on_review: OnReview;
}

export const DEFAULT_ON_REVIEW: OnReview = 'hold';

/** The account's settings, defaults filled in. Errors: not_found (no such account). */
export async function readNameMatchSettings(db: Db, accountId: string): Promise<NameMatchSettings> {
  const row = await db
    .selectFrom('accounts')
    .select(['name_match_approve_at', 'name_match_review_at', 'name_match_on_review'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return {
    thresholds: { approve_at: row.name_match_approve_at ?? DEFAULT_THRESHOLDS.approve_at, review_at: row.name_match_review_at ?? DEFAULT_THRESHOLDS.review_at },
    on_review: row.name_match_on_review ?? DEFAULT_ON_REVIEW,
  };
}

/** A change of settings; an absent field stays as it is, null returns it to the default. */
export interface NameMatchChange {
  approve_at?: number | null;
  review_at?: number | null;
  on_review?: OnReview | null;
}

/**
 * Applies a change, checking the result as a whole (review_at never above approve_at, each 0 to 100).
 * Errors: not_found (account), validation (naming approve_at, review_at or on_review).
 */
export async function writeNameMatchSettings(db: Db, accountId: string, change: NameMatchChange): Promise<NameMatchSettings> {
  const current = await db
    .selectFrom('accounts')
    .select(['name_match_approve_at', 'name_match_review_at', 'name_match_on_review'])
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw new ApiError('not_found', `No account ${accountId}`);
  const next = {
    name_match_approve_at: change.approve_at === undefined ? current.name_match_approve_at : change.approve_at,
    name_match_review_at: change.review_at === undefined ? current.name_match_review_at : change.review_at,
    name_match_on_review: change.on_review === undefined ? current.name_match_on_review : change.on_review,
  };
  const errors: Array<{ field: string; message: string }> = [];
  for (const [field, v] of [['approve_at', next.name_match_approve_at], ['review_at', next.name_match_review_at]] as const) {
    if (v !== null && (!Number.isInteger(v) || v < 0 || v > 100)) errors.push({ field, message: `${field} must be a whole number from 0 to 100` });
  }
  if (next.name_match_on_review !== null && next.name_match_on_review !== 'pay' && next.name_match_on_review !== 'hold') {
    errors.push({ field: 'on_review', message: 'on_review must be pay or hold' });
  }
  const approveAt = next.name_match_approve_at ?? DEFAULT_THRESHOLDS.approve_at;
  const reviewAt = next.name_match_review_at ?? DEFAULT_THRESHOLDS.review_at;
  if (errors.length === 0 && reviewAt > approveAt) errors.push({ field: 'review_at', message: `review_at (${reviewAt}) must not be above approve_at (${approveAt})` });
  if (errors.length) throw ApiError.validation(errors);
  await db.updateTable('accounts').set(next).where('id', '=', accountId).execute();
  return readNameMatchSettings(db, accountId);
}

/** Cached reads for the request path. */
export class NameMatchSettingsReader {
  private cache: TtlCache<NameMatchSettings>;

  constructor(
    private db: Db,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  get(accountId: string): Promise<NameMatchSettings> {
    return this.cache.get(accountId, () => readNameMatchSettings(this.db, accountId));
  }
}
