// Owns the pricing table: the fee, in paise, each live operation costs (CONTRACT §4). Each operation
// declares its default fee (operations/<slug>); a row in the table (`sangam pricing set`, or the rows
// migration 0003 seeded) overrides it, taking effect within the cache lifetime. An operation with
// neither is refused rather than run free.
import type { Db } from '../db/client.js';
import { TtlCache } from '../access/ttl-cache.js';

export async function listFees(db: Db, defaults?: ReadonlyMap<string, number>): Promise<Array<{ operation: string; fee_paise: number }>> {
  const rows = await db.selectFrom('pricing').select(['operation', 'fee_paise']).orderBy('operation').execute();
  const set = new Set(rows.map((r) => r.operation));
  const implicit = [...(defaults ?? [])].filter(([op]) => !set.has(op)).map(([operation, fee_paise]) => ({ operation, fee_paise }));
  return [...rows, ...implicit].sort((a, b) => a.operation.localeCompare(b.operation));
}

export async function setFee(db: Db, operation: string, feePaise: number): Promise<void> {
  await db
    .insertInto('pricing')
    .values({ operation, fee_paise: feePaise })
    .onConflict((oc) => oc.column('operation').doUpdateSet({ fee_paise: feePaise, updated_at: new Date() }))
    .execute();
}

export class Pricing {
  private cache: TtlCache<Map<string, number>>;

  constructor(
    private db: Db,
    ttlMs: number,
    /** Each operation's declared fee, for operations the table has no row for. */
    private defaults: ReadonlyMap<string, number>,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async fee(operation: string): Promise<number> {
    const table = await this.cache.get('fees', async () => new Map((await listFees(this.db)).map((r) => [r.operation, r.fee_paise])));
    const fee = table.get(operation) ?? this.defaults.get(operation);
    if (fee === undefined) throw new Error(`no fee is declared or priced for ${operation}`);
    return fee;
  }
}
