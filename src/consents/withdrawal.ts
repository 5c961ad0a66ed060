// Owns what ends a consent and what its end does (CONTRACT §13). Withdrawal or expiry first marks the
// consent, in one database transaction with its webhook event (`consent.withdrawn`, `consent.expired`)
// and its audit row: from that commit no call can cite it. Then its effect: what it still holds open
// is given back (a sandbox document-locker session still waiting for the user fails, denied; a live
// DigiLocker access token not yet spent is revoked at the partner), and the content of every operation
// made under it is erased as POST /api/v1/erasures erases it (audit/erasure.ts: the money facts stay).
// A reference whose transaction is still pending cannot be erased yet; the consent is then left
// un-effected (`effected_at` null) and the expiry worker (expiry.ts) finishes the work later.
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import type { Actor } from '../audit/admin-events.js';
import { appendAdminEvent } from '../audit/admin-events.js';
import { eraseReference } from '../transactions/erasure.js';
import { enqueueEvents } from '../webhooks/store.js';
import type { TransactionStore } from '../transactions/store.js';
import { ApiError } from '../errors.js';
import { getConsent, ownConsent, type ConsentView, type Scope } from './store.js';

/** Live partners that can revoke a grant they hold (the partner router). */
export interface GrantRevoker {
  revokeGrant(partner: string, clientId: string): Promise<boolean>;
}

export interface EndDeps {
  db: Db;
  transactions: TransactionStore;
  /** Null when no live partner is configured. */
  partners: GrantRevoker | null;
}

export interface Effect {
  sessions_failed: number;
  grants_revoked: number;
  references_erased: string[];
  /** References whose transaction is still pending: erased once final (expiry.ts retries). */
  references_pending: string[];
}

/**
 * Marks an active consent withdrawn or expired, with its event and audit row. False when it was not
 * active (already ended, or not found in the scope).
 */
export async function endConsent(db: Db, scope: Scope, id: string, to: 'withdrawn' | 'expired', actor: Actor): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('consents')
      .set({ status: to, ended_at: new Date() })
      .where('id', '=', id)
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .where('status', '=', 'active')
      .returning(['id', 'ended_at', 'purpose_code'])
      .executeTakeFirst();
    if (!ended) return false;
    const data = { consent_id: id, status: to, ended_at: ended.ended_at!.toISOString(), purpose_code: ended.purpose_code, environment: scope.environment };
    await enqueueEvents(trx, [{ scope, type: to === 'withdrawn' ? 'consent.withdrawn' : 'consent.expired', txnId: null, data }]);
    await appendAdminEvent(trx, actor, { ...scope, action: `consents ${to === 'withdrawn' ? 'withdraw' : 'expire'}`, detail: { consent_id: id } });
    return true;
  });
}

/** Withdraws the caller's consent and carries out its effect. Errors: not_found; validation (already expired). */
export async function withdraw(deps: EndDeps, scope: Scope, id: string, actor: Actor): Promise<ConsentView & { effect: Effect | null }> {
  const before = await ownConsent(deps.db, scope, id);
  if (!before) throw new ApiError('not_found', `No consent ${id}`);
  if (before.status === 'expired') throw ApiError.validation([{ field: 'id', message: 'the consent has already expired (its effect is the same as a withdrawal)' }]);
  const ended = await endConsent(deps.db, scope, id, 'withdrawn', actor);
  // A repeated withdrawal answers the consent as it is, and finishes an effect left undone.
  const effect = ended || !before.effected_at ? await effectEnd(deps, { ...scope, id }, actor) : null;
  return { ...(await getConsent(deps.db, scope, id)), effect };
}

/** What the end of a consent does; sets effected_at once nothing is left to do. Idempotent. */
export async function effectEnd(deps: EndDeps, c: { id: string; accountId: string; environment: Environment }, actor: Actor): Promise<Effect> {
  const uses = await deps.db
    .selectFrom('consent_uses as u')
    .innerJoin('transactions as t', 't.id', 'u.txn_id')
    .select(['u.txn_id', 'u.reference_id', 't.partner'])
    .where('u.consent_id', '=', c.id)
    .where('u.erased_at', 'is', null)
    .execute();
  const txnIds = [...new Set(uses.map((u) => u.txn_id))];
  const sessionsFailed = await failWaitingSessions(deps, txnIds);
  const grantsRevoked = await revokeLiveGrants(deps, uses);
  const erased: string[] = [];
  const pending: string[] = [];
  for (const referenceId of new Set(uses.map((u) => u.reference_id))) {
    const outcome = await eraseUses(deps.db, c, referenceId, actor);
    if (outcome === 'pending') pending.push(referenceId);
    else erased.push(referenceId); // 'taken': erased by a concurrent effect of the same end, committed
  }
  if (pending.length === 0) await deps.db.updateTable('consents').set({ effected_at: new Date() }).where('id', '=', c.id).execute();
  return { sessions_failed: sessionsFailed, grants_revoked: grantsRevoked, references_erased: erased, references_pending: pending };
}

/**
 * Erases one reference of the consent's uses, claiming them first in the same database transaction:
 * two processes effecting the same end erase it once (the second finds the uses claimed), and a
 * reference still pending rolls its claim back for a later try.
 */
async function eraseUses(db: Db, c: { id: string; accountId: string; environment: Environment }, referenceId: string, actor: Actor): Promise<'erased' | 'pending' | 'taken'> {
  try {
    return await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('consent_uses')
        .set({ erased_at: new Date() })
        .where('consent_id', '=', c.id)
        .where('reference_id', '=', referenceId)
        .where('erased_at', 'is', null)
        .returning('id')
        .execute();
      if (claimed.length === 0) return 'taken';
      await eraseReference(trx, { accountId: c.accountId, environment: c.environment, referenceId }, actor);
      return 'erased';
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'validation') return 'pending';
    throw err;
  }
}

/** Sandbox document-locker sessions still waiting for the user: denied, and their initialize failed. */
async function failWaitingSessions(deps: EndDeps, txnIds: string[]): Promise<number> {
  if (txnIds.length === 0) return 0;
  return deps.db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('doclocker_sessions')
      .set({ status: 'denied', decided_at: new Date() })
      .where('txn_id', 'in', txnIds)
      .where('environment', '=', 'sandbox') // a live session's consent screen is the partner's
      .where('status', '=', 'pending')
      .returning('txn_id')
      .execute();
    for (const r of rows) {
      await deps.transactions.settle(trx, r.txn_id, { status: 'failed', message: 'The consent this request was made under was withdrawn', fields: {} });
    }
    return rows.length;
  });
}

/** Live document-locker grants still held for the client ids issued under the consent: revoked at the partner. */
async function revokeLiveGrants(deps: EndDeps, uses: Array<{ txn_id: string; partner: string | null }>): Promise<number> {
  const byTxn = new Map(uses.filter((u) => u.partner).map((u) => [u.txn_id, u.partner!]));
  if (!deps.partners || byTxn.size === 0) return 0;
  const sessions = await deps.db.selectFrom('doclocker_sessions').select(['client_id', 'txn_id']).where('txn_id', 'in', [...byTxn.keys()]).where('environment', '=', 'live').execute();
  let revoked = 0;
  for (const s of sessions) if (await deps.partners.revokeGrant(byTxn.get(s.txn_id)!, s.client_id)) revoked++;
  return revoked;
}
