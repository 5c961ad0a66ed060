// Owns compliance approval: which operations an account may use with live keys (CONTRACT §2).
import type { Db } from '../db/client.js';
import { OPERATION_SLUGS } from '../providers/connector.js';
import { TtlCache } from './ttl-cache.js';

export const SLUGS: string[] = [...OPERATION_SLUGS];

export class UnknownOperationError extends Error {}

function expand(operation: string): string[] {
  if (operation === 'all') return SLUGS;
  if (!SLUGS.includes(operation)) throw new UnknownOperationError(`unknown operation ${operation}; one of: all, ${SLUGS.join(', ')}`);
  return [operation];
}

export async function approve(db: Db, accountId: string, operation: string): Promise<string[]> {
  const ops = expand(operation);
  await db
    .insertInto('approvals')
    .values(ops.map((op) => ({ account_id: accountId, operation: op })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return listApprovals(db, accountId);
}

export async function unapprove(db: Db, accountId: string, operation: string): Promise<string[]> {
  await db.deleteFrom('approvals').where('account_id', '=', accountId).where('operation', 'in', expand(operation)).execute();
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
