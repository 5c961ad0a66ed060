// Owns `sangam ledger check`: the invariants of the money, verified from the store.
//  1. every posting sums to zero;
//  2. each wallet's available + held (the sum of its pending holds) equals the sum of its ledger entries;
//  3. no balance or held amount is negative;
//  4. every hold is resolved, or pending with its transaction still pending; a resolved hold's
//     transaction is final: posted ↔ success (or a failed verification, which still pays its fee and
//     moves no principal), voided ↔ failed.
import { sql } from 'kysely';
import type { Db } from '../db/client.js';

export async function checkLedger(db: Db): Promise<{ ok: boolean; breaches: string[]; checked: Record<string, number> }> {
  const breaches: string[] = [];
  const unbalanced = await sql<{ posting_id: string; total: number }>`
    SELECT posting_id, SUM(amount_paise)::bigint AS total FROM ledger_entries GROUP BY posting_id HAVING SUM(amount_paise) <> 0`.execute(db);
  for (const r of unbalanced.rows) breaches.push(`posting ${r.posting_id} sums to ${r.total}, not 0`);

  const wallets = await sql<{ account_id: string; balance_paise: number; held_paise: number; entries: number }>`
    SELECT w.account_id, w.balance_paise, w.held_paise,
      COALESCE((SELECT SUM(amount_paise) FROM ledger_entries e WHERE e.ledger_account = 'wallet:' || w.account_id), 0)::bigint AS entries
    FROM wallet_balances w`.execute(db);
  for (const w of wallets.rows) {
    if (w.balance_paise < 0 || w.held_paise < 0) breaches.push(`wallet ${w.account_id} is negative: balance ${w.balance_paise}, held ${w.held_paise}`);
    if (w.balance_paise + w.held_paise !== Number(w.entries)) {
      breaches.push(`wallet ${w.account_id}: balance ${w.balance_paise} + held ${w.held_paise} ≠ entries ${w.entries}`);
    }
  }

  const holds = await sql<{ txn_id: string; hold: string; tx: string | null }>`
    SELECT h.txn_id, h.status AS hold, t.status AS tx FROM holds h LEFT JOIN transactions t ON t.id = h.txn_id
    WHERE NOT ((h.status = 'pending' AND t.status = 'pending')
            OR (h.status = 'posted' AND (t.status = 'success' OR (t.status = 'failed' AND h.principal_paise = 0)))
            OR (h.status = 'voided' AND t.status = 'failed'))`.execute(db);
  for (const h of holds.rows) breaches.push(`hold ${h.txn_id} is ${h.hold} but its transaction is ${h.tx ?? 'missing'}`);

  const count = async (table: 'ledger_entries' | 'wallets' | 'holds') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    ok: breaches.length === 0,
    breaches,
    checked: { entries: await count('ledger_entries'), wallets: await count('wallets'), holds: await count('holds') },
  };
}
