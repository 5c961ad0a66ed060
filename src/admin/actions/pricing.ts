// Owns the pricing actions: each operation's fee, where the table's row overrides the fee the operation
// declares (operations/<slug>), listed with both, and changed from the CLI or the console's admin area.
import type { Db } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { OPERATIONS, OPERATION_SLUGS } from '../../operations/registry.js';
import { listFees, setFee as storeFee } from '../../ledger/pricing.js';
import { adminAction, type Actor } from './run.js';

/** Each operation's declared fee: what applies where the table has no row. */
export const DECLARED_FEES: ReadonlyMap<string, number> = new Map(OPERATIONS.map((o) => [o.slug, o.feePaise]));

/** Every operation's fee in force, with the fee it declares. */
export async function list(db: Db): Promise<Array<{ operation: string; fee_paise: number; default_fee_paise: number | null }>> {
  return (await listFees(db, DECLARED_FEES)).map((f) => ({ ...f, default_fee_paise: DECLARED_FEES.get(f.operation) ?? null }));
}

/**
 * Sets one operation's fee (in force within the server's cache lifetime); audited with no account: a
 * price is the deployment's. Errors: validation (operation: unknown; fee_paise: negative or not whole).
 */
export function setFee(db: Db, actor: Actor, input: { operation: string; feePaise: number }) {
  if (!OPERATION_SLUGS.includes(input.operation)) {
    throw ApiError.validation([{ field: 'operation', message: `unknown operation ${input.operation}; one of: ${OPERATION_SLUGS.join(', ')}` }]);
  }
  if (!Number.isSafeInteger(input.feePaise) || input.feePaise < 0) throw ApiError.validation([{ field: 'fee', message: 'fee must be 0 or more, in whole paise' }]);
  return adminAction(db, actor, async (trx) => {
    const before = (await listFees(trx, DECLARED_FEES)).find((f) => f.operation === input.operation)?.fee_paise ?? null;
    await storeFee(trx, input.operation, input.feePaise);
    const result = { operation: input.operation, fee_paise: input.feePaise };
    return { result, event: { accountId: null, action: 'pricing set', detail: { operation: input.operation, fee_paise: input.feePaise, previous_fee_paise: before } } };
  });
}
