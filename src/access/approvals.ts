// Owns compliance approval: which operations an account may use with live keys (CONTRACT §2).
import type { Db } from '../db/client.js';
import { TtlCache } from './ttl-cache.js';

/** Approves `ops` (slugs the caller has checked against the registry) for live use; returns the approved list. */
export async function approve(db: Db, accountId: string, ops: readonly string[]): Promise<string[]> {
  await db
    .insertInto('approvals')
    .values(ops.map((op) => ({ account_id: accountId, operation: op })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return listApprovals(db, accountId);
}

export async function unapprove(db: Db, accountId: string, ops: readonly string[]): Promise<string[]> {
  await db.deleteFrom('approvals').where('account_id', '=', accountId).where('operation', 'in', ops).execute();
  return listApprovals(db, accountId);
}

export async function listApprovals(db: Db, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('approvals').select('operation').where('account_id', '=', accountId).orderBy('operation').execute();
  return rows.map((r) => r.operation);
}

export class ApprovalGuard {
  private cache: TtlCache<Set<string>>;

  constructor(
    private db: Db,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async approved(accountId: string, operation: string): Promise<boolean> {
    const set = await this.cache.get(accountId, async () => new Set(await listApprovals(this.db, accountId)));
    return set.has(operation);
  }
}
