// Owns "verify once, pay many" (CONTRACT §14): the newest successful vpa-verification of a VPA by the
// same account in the same environment that found it valid with a name, verified within the account's
// reuse window (accounts/verification-reuse.ts; default 24 h). A UPI payout's name check uses it instead
// of paying for a new validation. One query on the partial index of migration 0029; the VPA is compared
// without case, as UPI handles do. An erased verification has no `vpa` left and is never found.
import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import { DEFAULT_REUSE_WINDOW_S } from '../../accounts/verification-reuse.js';

/** A verification that stands in for a validation: whose it found, and which one it was. */
export interface ReusedVerification {
  txnId: string;
  referenceId: string;
  verifiedAt: Date;
  nameAtBank: string;
}

export async function recentVpaVerification(db: Db, accountId: string, environment: Environment, vpa: string): Promise<ReusedVerification | null> {
  const row = await db
    .selectFrom('transactions as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 't.reference_id', 't.verified_at', sql<string>`t.result ->> 'name_at_bank'`.as('name_at_bank')])
    .where('t.account_id', '=', accountId)
    .where('t.environment', '=', environment)
    .where('t.operation', '=', 'vpa-verification')
    .where('t.status', '=', 'success')
    .where(sql`lower(t.result ->> 'vpa')`, '=', vpa.toLowerCase())
    .where(sql`t.result ->> 'vpa_status'`, '=', 'valid')
    .where(sql`t.result ->> 'name_at_bank'`, 'is not', null)
    .where(sql<boolean>`t.verified_at > now() - make_interval(secs => coalesce(a.verification_reuse_window_s, ${DEFAULT_REUSE_WINDOW_S}))`)
    .orderBy('t.verified_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row?.verified_at) return null;
  return { txnId: row.id, referenceId: row.reference_id, verifiedAt: new Date(row.verified_at), nameAtBank: row.name_at_bank };
}
