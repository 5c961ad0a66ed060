// Owns the key actions: create, roll, revoke. `accountId` on roll and revoke scopes the key to one
// account (a console user acts on their own account only); a key outside it reads as not found.
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import { createKey, keyAccount, rollKey, revokeKey } from '../../accounts/store.js';
import { listApprovals } from '../../access/approvals.js';
import { ApiError } from '../../errors.js';
import { adminAction, type Actor } from './run.js';

/**
 * Issues a key, shown once. With `requireApproval`, a live key needs the account approved for at
 * least one operation (self-service in the console; an operator may issue one before approval).
 * Errors: not_found (account), forbidden (live key before approval), validation (name).
 */
export function create(db: Db, actor: Actor, input: { accountId: string; environment: Environment; name?: string | null; requireApproval?: boolean }) {
  const name = keyName(input.name);
  return adminAction(db, actor, async (trx) => {
    if (input.requireApproval && input.environment === 'live' && (await listApprovals(trx, input.accountId)).length === 0) {
      throw new ApiError('forbidden', 'Live keys are issued once the account is approved for at least one operation');
    }
    const key = await createKey(trx, input.accountId, input.environment, name);
    return { result: key, event: { accountId: input.accountId, environment: input.environment, action: 'keys create', detail: { key_id: key.id, name } } };
  });
}

/** A key's name, trimmed; absent or blank is none. Errors: validation (field `name`, over 100 characters). */
function keyName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  if (!trimmed) return null;
  if (trimmed.length > 100) throw ApiError.validation([{ field: 'name', message: 'name must be at most 100 characters' }]);
  return trimmed;
}

async function owner(trx: Trx, keyId: string, accountId: string | undefined) {
  const row = await keyAccount(trx, keyId);
  if (!row || (accountId !== undefined && row.account_id !== accountId)) throw new ApiError('not_found', `No key ${keyId}`);
  return row;
}

/** Issues a successor; the old key works `graceS` more seconds. Errors: not_found (no such active key). */
export function roll(db: Db, actor: Actor, input: { keyId: string; graceS: number; accountId?: string }) {
  return adminAction(db, actor, async (trx) => {
    const o = await owner(trx, input.keyId, input.accountId);
    const rolled = await rollKey(trx, input.keyId, input.graceS);
    const detail = { key_id: input.keyId, new_key_id: rolled.id, grace_s: input.graceS };
    return { result: rolled, event: { accountId: o.account_id, environment: o.environment, action: 'keys roll', detail } };
  });
}

/** Stops a key at once. Errors: not_found (no such active key). */
export function revoke(db: Db, actor: Actor, input: { keyId: string; accountId?: string }) {
  return adminAction(db, actor, async (trx) => {
    const o = await owner(trx, input.keyId, input.accountId);
    const revoked = await revokeKey(trx, input.keyId);
    return { result: revoked, event: { accountId: o.account_id, environment: o.environment, action: 'keys revoke', detail: { key_id: input.keyId } } };
  });
}
