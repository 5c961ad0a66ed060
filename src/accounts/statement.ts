// Owns the wallet statement page that both the API (GET /api/v1/account/statement) and the console
// serve: the cursor's schema, its check, and next_cursor. A cursor is the id of the last entry of the
// previous page; the schema keeps it to digits, and the check to ids JavaScript holds exactly, so a
// bad cursor is a 422 naming `cursor`, never a query on NaN. The console also filters and exports it.
import { Type } from '@sinclair/typebox';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { statement, type StatementEntry, type StatementFilter } from '../ledger/ledger.js';

export const StatementCursor = Type.String({ pattern: '^[0-9]{1,18}$', description: 'next_cursor of the previous page' });

/**
 * One page, read by the console (every entry of the account) or by a key of `environment`: the
 * entries are live money, so a sandbox key's page is empty (its cursor is still checked).
 * Errors: validation (field `cursor`, beyond 2^53).
 */
export async function statementPage(
  db: Db,
  accountId: string,
  limit: number,
  cursor: string | undefined,
  environment?: Environment,
  filter: StatementFilter = {},
): Promise<{ items: StatementEntry[]; next_cursor: string | null }> {
  const before = cursor === undefined ? undefined : Number(cursor);
  if (before !== undefined && !Number.isSafeInteger(before)) throw ApiError.validation([{ field: 'cursor', message: 'cursor is not valid' }]);
  if (environment === 'sandbox') return { items: [], next_cursor: null };
  const items = await statement(db, accountId, limit, before, filter);
  return { items, next_cursor: items.length === limit ? String(items.at(-1)!.id) : null };
}

/** Every entry the filter keeps, newest first, a page at a time (an export's rows, in constant memory). */
export async function* statementEntries(db: Db, accountId: string, filter: StatementFilter): AsyncGenerator<StatementEntry> {
  const PAGE = 500;
  for (let before: number | undefined; ; ) {
    const items = await statement(db, accountId, PAGE, before, filter);
    yield* items;
    if (items.length < PAGE) return;
    before = items.at(-1)!.id;
  }
}
