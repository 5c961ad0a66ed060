// Owns the money: integer paise, double-entry postings and two-phase holds (after TigerBeetle's
// pending → post | void). A client's wallet row keeps `balance` (available); `held` is the sum of its
// pending holds (the wallet_balances view). A reservation is a conditional UPDATE that cannot take the
// balance below zero, so concurrent debits on one wallet serialise on its row lock and never overdraw
// it; it comes after the rows it reserves for, so the lock is held briefly, until the commit. Entries sharing a
// posting_id sum to zero. Ledger accounts: wallet:<account>, platform:fees, partner:settlement,
// platform:commission (commission passed on to clients), funding:topups.
import { sql, type OperationNodeSource, type RawBuilder, type Transaction } from 'kysely';
import { insertRows } from '../db/recordset.js';
import type { Db } from '../db/client.js';
import type { DB } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { paiseToInr } from '../money.js';
import { inTransaction } from '../db/transaction.js';

export const WALLET = (accountId: string) => `wallet:${accountId}`;
export const FEES = 'platform:fees';
export const SETTLEMENT = 'partner:settlement';
export const COMMISSION = 'platform:commission';
export const FUNDING = 'funding:topups';

type Trx = Transaction<DB>;

export interface HoldSpec {
  txnId: string;
  accountId: string;
  principalPaise: number;
  feePaise: number;
  commissionPaise: number;
  /**
   * Part of the debit already set aside from the balance (a live batch's reserve, src/batches/): the
   * wallet gives only the rest now. The hold is still for the whole debit, so voiding it returns all.
   */
  reservedPaise?: number;
}

/** What the client pays for an operation: the principal less the commission, plus the fee. */
export const debitOf = (h: Pick<HoldSpec, 'principalPaise' | 'feePaise' | 'commissionPaise'>) => h.principalPaise - h.commissionPaise + h.feePaise;

/** The non-zero legs of a posting; throws unless they sum to zero. */
function balanced(postingId: string, legs: Array<[string, number]>): Array<[string, number]> {
  const entries = legs.filter(([, amount]) => amount !== 0);
  if (entries.reduce((s, [, a]) => s + a, 0) !== 0) throw new Error(`posting ${postingId} does not balance`);
  return entries;
}

async function writePosting(trx: Trx, postingId: string, kind: string, memo: string | null, legs: Array<[string, number]>): Promise<void> {
  const entries = balanced(postingId, legs);
  if (entries.length === 0) return;
  await trx
    .insertInto('ledger_entries')
    .values(entries.map(([ledger_account, amount_paise]) => ({ posting_id: postingId, ledger_account, amount_paise, kind, memo })))
    .execute();
}

/**
 * Credits a wallet from outside (a top-up); returns the new available balance in paise. Runs inside
 * the caller's transaction when given one. Errors: validation (amount), not_found (account).
 */
export async function topUp(db: Db, accountId: string, amountPaise: number, memo: string | null): Promise<number> {
  if (!Number.isSafeInteger(amountPaise) || amountPaise <= 0) throw new ApiError('validation', 'amount must be greater than 0');
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('wallets')
      .set({ balance_paise: sql`balance_paise + ${amountPaise}`, updated_at: sql`now()` })
      .where('account_id', '=', accountId)
      .returning('balance_paise')
      .executeTakeFirst();
    if (!row) throw new ApiError('not_found', `account ${accountId} does not exist`);
    await writePosting(trx, newId('topup', 20), 'topup', memo, [
      [WALLET(accountId), amountPaise],
      [FUNDING, -amountPaise],
    ]);
    return row.balance_paise;
  });
}

/**
 * Reserves the debits of several operations in one database transaction: the hold rows, then one
 * conditional UPDATE per wallet for the sum of its holds, in a fixed order. Throws 402 when a wallet cannot cover the whole sum (the group commit then tries
 * each operation alone, so the first ones in order still go through).
 */
export async function holdMany(trx: Trx, holds: HoldSpec[]): Promise<void> {
  const perWallet = new Map<string, number>();
  for (const h of holds) {
    const amount = debitOf(h);
    if (amount < 0) throw new Error(`hold ${h.txnId} would credit the wallet`);
    perWallet.set(h.accountId, (perWallet.get(h.accountId) ?? 0) + amount - (h.reservedPaise ?? 0));
  }
  const rows = holds.map((h) => ({
    txn_id: h.txnId,
    account_id: h.accountId,
    amount_paise: debitOf(h),
    principal_paise: h.principalPaise,
    fee_paise: h.feePaise,
    commission_paise: h.commissionPaise,
    status: 'pending' as const,
  }));
  const wallets = [...perWallet].sort(([a], [b]) => (a < b ? -1 : 1));
  const refusal = (amount: number) => (available: number) => `Insufficient wallet balance: ${inr(available)} available, ${inr(amount)} needed`;
  if (wallets.length === 1) {
    // One wallet (a batch of one account's calls, and every call alone): the holds and the balance in
    // one statement. Short, nothing is taken, and the caller's transaction rolls the holds back.
    const [accountId, amount] = wallets[0]!;
    return takeFromBalance(trx, accountId, amount, refusal(amount), trx.insertInto('holds').values(rows));
  }
  await trx.insertInto('holds').values(rows).execute();
  // Wallets in a fixed order, so that two batches reserving on the same wallets cannot deadlock.
  for (const [accountId, amount] of wallets) await takeFromBalance(trx, accountId, amount, refusal(amount));
}

const inr = (paise: number) => `₹${paiseToInr(paise).toFixed(2)}`;

/** The wallet's CHECK (balance_paise >= 0, migration 0001), as the store names it. */
const BALANCE_CHECK = 'wallets_balance_paise_check';

/**
 * holdMany() as CTEs of a caller's statement that runs with no transaction around it (one round trip
 * for a call's whole recovery point): the holds whose transactions the statement records (`kept`, a
 * condition on `v.txn_id`), all on one wallet and none with a reserve, then that wallet's balance less
 * their sum, after the rows it reserves for (the lock order). A balance that cannot cover the sum
 * fails the whole statement on the wallet's CHECK, so nothing of it is written; `shortOf` turns that
 * failure into holdMany's 402.
 */
export function holdCtes(holds: HoldSpec[], kept: RawBuilder<unknown>): RawBuilder<unknown> {
  const accountId = holds[0]!.accountId;
  if (holds.some((h) => h.accountId !== accountId || (h.reservedPaise ?? 0) !== 0 || debitOf(h) < 0)) throw new Error('holdCtes takes holds on one wallet, none reserved or crediting');
  const rows = holds.map((h) => ({ txn_id: h.txnId, account_id: h.accountId, amount_paise: debitOf(h), principal_paise: h.principalPaise, fee_paise: h.feePaise, commission_paise: h.commissionPaise, status: 'pending' }));
  const types = { txn_id: 'text', account_id: 'text', amount_paise: 'bigint', principal_paise: 'bigint', fee_paise: 'bigint', commission_paise: 'bigint', status: 'text' };
  return sql`
    holds_taken AS (${insertRows('holds', types, rows, kept)} RETURNING amount_paise),
    wallet_taken AS (
      UPDATE wallets SET balance_paise = balance_paise - (SELECT coalesce(sum(amount_paise), 0) FROM holds_taken), updated_at = now()
      WHERE account_id = ${accountId} RETURNING balance_paise)`;
}

/**
 * The 402 for a statement made with holdCtes() that failed because the wallet could not cover its
 * holds (with what the wallet has now), or null for any other failure.
 */
export async function shortOf(db: Db, err: unknown, holds: HoldSpec[]): Promise<ApiError | null> {
  const e = err as { code?: unknown; constraint?: unknown };
  if (e?.code !== '23514' || e.constraint !== BALANCE_CHECK) return null;
  const needed = holds.reduce((sum, h) => sum + debitOf(h), 0);
  const w = await db.selectFrom('wallets').select('balance_paise').where('account_id', '=', holds[0]!.accountId).executeTakeFirst();
  return new ApiError('insufficient_funds', `Insufficient wallet balance: ${inr(w?.balance_paise ?? 0)} available, ${inr(needed)} needed`);
}

/**
 * Takes `amount` from a wallet's available balance with one conditional UPDATE that cannot take it
 * below zero (it locks the wallet row until the commit); throws 402 with `refusal(available)` when short.
 * `alongside`, a write of the caller's, runs in the same statement (a data-modifying CTE: it happens
 * whether or not the balance suffices, so the caller's transaction must roll it back on the 402).
 * Also a live batch's reserve (src/batches/).
 */
export async function takeFromBalance(
  trx: Trx,
  accountId: string,
  amount: number,
  refusal: (availablePaise: number) => string,
  alongside?: OperationNodeSource,
): Promise<void> {
  const take = trx
    .updateTable('wallets')
    .set({ balance_paise: sql`balance_paise - ${amount}`, updated_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('balance_paise', '>=', amount)
    .returning('balance_paise');
  const row = alongside ? (await sql<{ balance_paise: number }>`WITH alongside AS (${alongside}) ${take}`.execute(trx)).rows[0] : await take.executeTakeFirst();
  if (row) return;
  const w = await trx.selectFrom('wallets').select('balance_paise').where('account_id', '=', accountId).executeTakeFirst();
  throw new ApiError('insufficient_funds', refusal(w?.balance_paise ?? 0));
}

/** Resolves pending holds in one UPDATE; answers the holds that were pending. */
async function resolve(trx: Trx, txnIds: string[], to: 'posted' | 'voided') {
  if (txnIds.length === 0) return [];
  return trx
    .updateTable('holds')
    .set({ status: to, resolved_at: new Date() })
    .where('txn_id', 'in', txnIds)
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
}

/**
 * Posts pending holds: the money moves. One statement resolves the holds and writes every posting:
 * per hold, the wallet gives what was reserved (principal − commission + fee), the fee goes to the
 * platform, the principal to partner settlement, and the commission is passed on from the platform's
 * commission account; the four legs sum to zero by construction (`sangam ledger check` verifies it).
 * The wallet rows are not touched (the reserved amounts already left their balances, and held is
 * derived from pending holds). Holds that are not pending (resolved already) are skipped.
 */
export async function post(trx: Trx, ...txnIds: string[]): Promise<void> {
  if (txnIds.length > 0) await sql`WITH ${resolvedCtes('posted', sql`txn_id IN (${sql.join(txnIds)})`)} SELECT 1`.execute(trx);
}

/**
 * post() or voidHold() as CTEs of a caller's statement (a live outcome written in one statement,
 * operations/live-runner.ts): the pending holds whose txn_id passes `which` resolved, then their
 * posting's legs, or the voided amounts back to their wallets, as `hold_settled`. A caller that reads
 * `hold_settled` to its end has the money written, and a voided hold's wallet locked, before what it
 * writes next. Meant for one transaction's hold (one wallet): voidHold orders several wallets' updates
 * so that concurrent batches cannot deadlock, and these CTEs do not.
 */
export function resolvedCtes(to: 'posted' | 'voided', which: RawBuilder<unknown>): RawBuilder<unknown> {
  const resolved = sql`
    hold_resolved AS (
      UPDATE holds SET status = ${to}, resolved_at = now() WHERE ${which} AND status = 'pending'
      RETURNING txn_id, account_id, amount_paise, fee_paise, principal_paise, commission_paise)`;
  if (to === 'voided') {
    return sql`${resolved},
    hold_settled AS (
      UPDATE wallets w SET balance_paise = w.balance_paise + b.amount, updated_at = now()
      FROM (SELECT account_id, sum(amount_paise) AS amount FROM hold_resolved GROUP BY account_id) b
      WHERE w.account_id = b.account_id
      RETURNING w.account_id)`;
  }
  return sql`${resolved},
    hold_settled AS (
      INSERT INTO ledger_entries (posting_id, ledger_account, amount_paise, kind, memo)
      SELECT h.txn_id, leg.account, leg.amount, 'debit', NULL
      FROM hold_resolved h CROSS JOIN LATERAL (VALUES
        (${WALLET('')} || h.account_id, -h.amount_paise),
        (${FEES}, h.fee_paise),
        (${SETTLEMENT}, h.principal_paise),
        (${COMMISSION}, -h.commission_paise)
      ) AS leg (account, amount)
      WHERE leg.amount <> 0
      RETURNING posting_id)`;
}

/** Voids pending holds: the money returns to the balances, one UPDATE per wallet, in a fixed order. */
export async function voidHold(trx: Trx, ...txnIds: string[]): Promise<void> {
  const back = new Map<string, number>();
  for (const h of await resolve(trx, txnIds, 'voided')) back.set(h.account_id, (back.get(h.account_id) ?? 0) + h.amount_paise);
  for (const [accountId, amount] of [...back].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await trx
      .updateTable('wallets')
      .set({ balance_paise: sql`balance_paise + ${amount}`, updated_at: sql`now()` })
      .where('account_id', '=', accountId)
      .execute();
  }
}

/**
 * A correcting posting for a posted transaction that was undone after the fact (a reversed payout, a
 * refunded recharge): every leg of its posting again with the opposite sign, under the posting id
 * `rev_<txnId>`, so the wallet gets back what it paid (fee included; the commission passed on is taken
 * back) and nothing already written changes. The wallet's balance rises by what returns. Once only:
 * a second call finds the correcting posting and does nothing.
 */
export async function reverse(trx: Trx, txnId: string, reason: string): Promise<void> {
  const postingId = `rev_${txnId}`;
  const done = await trx.selectFrom('ledger_entries').select('posting_id').where('posting_id', '=', postingId).limit(1).executeTakeFirst();
  if (done) return;
  const legs = await trx.selectFrom('ledger_entries').select(['ledger_account', 'amount_paise']).where('posting_id', '=', txnId).execute();
  if (legs.length === 0) return;
  await writePosting(trx, postingId, 'reversal', reason, legs.map((l) => [l.ledger_account, -l.amount_paise]));
  for (const l of legs.filter((x) => x.ledger_account.startsWith('wallet:'))) {
    await trx
      .updateTable('wallets')
      .set({ balance_paise: sql`balance_paise + ${-l.amount_paise}`, updated_at: sql`now()` })
      .where('account_id', '=', l.ledger_account.slice('wallet:'.length))
      .execute();
  }
}

export interface StatementEntry {
  id: number;
  created_at: string;
  kind: string;
  txn_id: string | null;
  /** The client's reference_id of that transaction, its operation, and its status now. */
  reference_id: string | null;
  operation: string | null;
  status: string | null;
  amount: number;
  balance_after: number;
  memo: string | null;
  /** Why the wallet moved, in words: a top-up, what a debit paid for, what a reversal gave back. */
  reason: string;
}

/** A reversal's posting is `rev_<txn id>` (reverse() above); every other non-top-up posting is the txn id. */
const txnOf = (kind: string, postingId: string) => (kind === 'topup' ? null : kind === 'reversal' ? postingId.replace(/^rev_/, '') : postingId);

interface StatementRow {
  id: number;
  created_at: Date;
  kind: string;
  posting_id: string;
  amount_paise: number;
  memo: string | null;
  balance_after: number;
  reference_id: string | null;
  operation: string | null;
  status: string | null;
  message: string | null;
}

/**
 * Why an entry moved the wallet. A debit of a failed transaction is the fee of a check that was done
 * (a verification pays once it ran, whatever it found: docs/DECISIONS.md); payments and recharges that
 * fail are never debited.
 */
function reasonOf(r: StatementRow): string {
  if (r.kind === 'topup') return r.memo ?? 'Top-up';
  if (r.kind === 'reversal') return `Reversal of ${r.operation ?? 'a transaction'}${r.memo ? `: ${r.memo}` : ''}`;
  if (r.status === 'failed') return `Fee for a completed ${r.operation} check that answered failed${r.message ? ` (${r.message})` : ''}`;
  return `${r.operation ?? r.kind}${r.status ? ` ${r.status}` : ''}`;
}

/** Narrows a statement: entries of one transaction (its reference_id or txn_id), and a time window. */
export interface StatementFilter {
  reference?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/**
 * The wallet's entries, newest first, with their transactions; balance_after is the wallet's total
 * (available + held) after each, whatever the filter leaves out.
 */
export async function statement(db: Db, accountId: string, limit: number, before?: number, filter: StatementFilter = {}): Promise<StatementEntry[]> {
  const where = [
    before === undefined ? sql`TRUE` : sql`s.id < ${before}`,
    filter.reference === undefined ? sql`TRUE` : sql`(t.reference_id = ${filter.reference} OR t.id = ${filter.reference})`,
    filter.from === undefined ? sql`TRUE` : sql`s.created_at >= ${filter.from}`,
    filter.to === undefined ? sql`TRUE` : sql`s.created_at < ${filter.to}`,
  ];
  const rows = await sql<StatementRow>`
    SELECT s.*, t.reference_id, t.operation, t.status, t.result->>'message' AS message FROM (
      SELECT id, created_at, kind, posting_id, amount_paise, memo,
             SUM(amount_paise) OVER (ORDER BY id) AS balance_after
      FROM ledger_entries WHERE ledger_account = ${WALLET(accountId)}
    ) s
    LEFT JOIN transactions t ON s.kind <> 'topup' AND t.id = (CASE WHEN s.kind = 'reversal' THEN substr(s.posting_id, 5) ELSE s.posting_id END)
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY s.id DESC LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    created_at: r.created_at.toISOString(),
    kind: r.kind,
    txn_id: txnOf(r.kind, r.posting_id),
    reference_id: r.reference_id,
    operation: r.operation,
    status: r.status,
    amount: paiseToInr(r.amount_paise),
    balance_after: paiseToInr(Number(r.balance_after)),
    memo: r.memo,
    reason: reasonOf(r),
  }));
}
