// Owns the pricing table: the fee, in paise, each live operation costs (CONTRACT §4). Defaults are
// seeded by migration 0003; `sangam pricing set` changes them, taking effect within the cache lifetime.
import type { Db } from '../db/client.js';
import { TtlCache } from '../access/ttl-cache.js';

export async function listFees(db: Db): Promise<Array<{ operation: string; fee_paise: number }>> {
  return db.selectFrom('pricing').select(['operation', 'fee_paise']).orderBy('operation').execute();
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
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async fee(operation: string): Promise<number> {
    const table = await this.cache.get('fees', async () => new Map((await listFees(this.db)).map((r) => [r.operation, r.fee_paise])));
    return table.get(operation) ?? 0;
  }
}
