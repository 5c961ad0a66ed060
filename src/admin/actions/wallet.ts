// Owns the wallet action: a top-up from outside (the funding ledger account), in paise.
import type { Db } from '../../db/client.js';
import { topUp as credit } from '../../ledger/ledger.js';
import { paiseToInr } from '../../money.js';
import { adminAction, type Actor } from './run.js';

/** Returns the new available balance in paise. Errors: validation (amount), not_found (account). */
export function topUp(db: Db, actor: Actor, input: { accountId: string; amountPaise: number }) {
  // The memo shows on the client's statement.
  const memo = actor === 'cli' ? 'CLI top-up' : `console top-up by ${actor.slice('console:'.length)}`;
  return adminAction(db, actor, async (trx) => {
    const balance = await credit(trx, input.accountId, input.amountPaise, memo);
    const detail = { amount: paiseToInr(input.amountPaise), amount_paise: input.amountPaise };
    return { result: { account: input.accountId, balance_paise: balance }, event: { accountId: input.accountId, action: 'wallet topup', detail } };
  });
}
