// Owns recording operations with group commit. What one request records (its transaction row, its
// idempotency key, a live operation's hold on the wallet and its sealed note, a sandbox answer's audit
// row, and any extra writes) is queued, and the records of concurrent requests are written together:
//   - keys, transaction rows and audit rows only (the sandbox): in one statement, which is atomic on its
//     own and needs no transaction around it;
//   - live recovery points on one wallet with nothing else to write (every live call on a quiet server):
//     in one statement too, the holds and the wallet's balance as its last CTEs (ledger.ts holdCtes; a
//     balance that cannot cover them fails the statement on the wallet's CHECK: nothing is written);
//   - otherwise in one database transaction: one statement that inserts the keys and the transaction
//     rows of the keys it got, one multi-row INSERT of holds, one conditional UPDATE per wallet for the
//     sum of its holds (so a hot wallet's row is locked once per batch, until the commit), and the audit
//     rows.
// A request is answered only once its batch has committed.
//   - Sandbox: the key is stored as done with the response (no partner call sits between claim and
//     effect).
//   - Live: this is the recovery point (live.ts phase 1): the pending transaction, its hold, and the key
//     in flight, bound to the transaction.
// A request whose key is already taken (a concurrent duplicate in the same batch or elsewhere)
// records nothing and is told so; its caller then asks IdempotencyStore.claim(). A batch a wallet
// cannot cover as a whole fails, and GroupCommit then records each request alone, in order: the ones
// that fit go through, the rest get 402.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB } from '../db/schema.js';
import { GroupCommit, type Lane } from '../db/group-commit.js';
import { preparedIf } from '../db/prepared.js';
import { scopeId, type IdempotencyStore, type IdemScope } from '../idempotency/store.js';
import { holdCtes, holdMany, shortOf, type HoldSpec } from '../ledger/ledger.js';
import { appendChained, chainedCtes, prepareChained, type AuditRow } from '../audit/chain.js';
import type { NewTransaction, TransactionStore, TxRow } from '../transactions/store.js';
import { notesInsertion, type SealedNote } from '../transactions/notes.js';

export interface Recording {
  tx: NewTransaction;
  /** The idempotency key; with `response`, stored as done with the response made from the recorded row. */
  key: { scope: IdemScope; hash: string; response?: (row: TxRow) => string } | null;
  /** A live operation's reservation on the wallet. */
  hold?: HoldSpec;
  /** What the pending's later end will need from the request, sealed (transactions/notes.ts). */
  note?: SealedNote;
  /** The request's audit row, when the answer is known as soon as it is recorded (the sandbox). */
  audit?: (row: TxRow) => AuditRow;
  afterRecord: Array<(trx: Transaction<DB>) => Promise<void>>;
  lane?: Lane;
}

/**
 * Two batches at once: while one waits on the database, the next is already being written (measured:
 * +35 % sandbox throughput on PostgreSQL over one at a time; a third adds nothing). Deadlock-free,
 * because every batch takes its locks in one order: keys (sorted), wallets (sorted), the audit chain.
 */
const BATCHES_IN_FLIGHT = 2;

/**
 * What became of a recording: recorded (with its result as stored, JSON); its idempotency key taken already (its caller asks
 * IdempotencyStore for what the key answers); or its reference_id held by another transaction (CONTRACT
 * §5: nothing recorded, no key claimed).
 */
export type Recorded = { kind: 'recorded'; row: TxRow; stored: string } | { kind: 'key_taken' } | { kind: 'reference_taken' };

/** Which recordings of a write went in, and which found their reference held. */
type Inserted = { recorded: Built[]; referenceTaken: Set<Built> };

/** A recording with its rows built (Recorder.build). */
type Built = ReturnType<Recorder['build']>;

export class Recorder {
  private batches: GroupCommit<Built, Recorded>;

  constructor(
    private db: Db,
    private transactions: TransactionStore,
    private idempotency: IdempotencyStore,
  ) {
    this.batches = new GroupCommit((items) => this.write(items), BATCHES_IN_FLIGHT);
  }

  /**
   * The rows are built and hashed as the recording arrives, while an earlier batch is being written:
   * on the embedded store the one connection is held from BEGIN to COMMIT, and then waits on nothing
   * but the statements.
   */
  record(r: Recording): Promise<Recorded> {
    return this.batches.submit(this.build(r), r.lane);
  }

  flush(): Promise<void> {
    return this.batches.flush();
  }

  /** A recording's rows as they will be written: its transaction row, stored response and prepared audit row. */
  private build(item: Recording) {
    const { row, values } = this.transactions.build(item.tx);
    const audit = item.audit ? prepareChained([item.audit(row)])[0]! : null;
    return { item, row, values, response: item.key?.response?.(row) ?? null, audit };
  }

  /**
   * A batch of recordings that write only keys, transaction rows and audit rows (the sandbox's, and a
   * sandbox batch's rows) goes in one statement with no transaction around it: one round trip instead
   * of five (BEGIN, the keys and rows, the chain head's lock, the audit rows, COMMIT), each of which
   * waited for a turn of this thread's event loop under load (issue #28). A single statement is atomic
   * on its own, so what is acknowledged is as durable as before. Anything else (a hold, a write of its
   * own) takes the transaction.
   */
  private async write(built: Built[]): Promise<Recorded[]> {
    if (built.every(({ item }) => !item.hold && !item.note && item.afterRecord.length === 0)) return this.outcomes(built, await this.insert(this.db, built, true));
    const holds = alone(built);
    if (holds) {
      // Live recovery points on one wallet with nothing else to write (every call on a quiet server):
      // the keys, the rows, the holds, the wallet and the notes in one statement, as the sandbox's write is.
      const kept = sql`v.txn_id IN (SELECT id FROM recorded)`;
      const notes = notesOf(built);
      const writes = notes.length > 0 ? sql`${holdCtes(holds, kept)}, notes_kept AS (${notesInsertion(notes, kept)})` : holdCtes(holds, kept);
      try {
        return this.outcomes(built, await this.insert(this.db, built, false, writes));
      } catch (err) {
        throw (await shortOf(this.db, err, holds)) ?? err;
      }
    }
    return this.db.transaction().execute(async (trx) => {
      const inserted = await this.insert(trx, built, false);
      const { recorded } = inserted;
      for (const { item } of recorded) for (const write of item.afterRecord) await write(trx);
      const notes = notesOf(recorded);
      if (notes.length > 0) await notesInsertion(notes).execute(trx);
      const holds = recorded.flatMap((b) => (b.item.hold ? [b.item.hold] : []));
      if (holds.length > 0) await holdMany(trx, holds); // locks the wallet rows until the commit
      await appendChained(trx, recorded.flatMap((b) => (b.audit ? [b.audit] : []))); // the chain lock last: locks go keys → wallets → chain
      return this.outcomes(built, inserted);
    });
  }

  /**
   * Inserts the keys and the transaction rows in one statement (on the embedded store the engine's
   * thread does not wait for this thread between them), with `chained` the audit rows too, and
   * `alongside` (CTEs that read `recorded`, the ids of the rows that went in: a lone wallet's holds and
   * notes) in the same statement; answers
   * the recordings that went in. A request's row goes in when it has no key, or its key went in (the
   * claims RETURN the txn_id they were inserted with); the first of several requests with one key in a
   * batch goes ahead, the others are duplicates.
   *
   * A reference_id names one transaction (CONTRACT §5). One a committed transaction holds is seen first
   * (`held`): such a request claims no key and records nothing. Two requests taking one new reference at
   * the same moment (here or in another process) are decided by the unique index: the second's row is
   * not inserted, and the key it claimed in this statement is deleted at once (in the same database
   * transaction, except for the one-statement writes, the sandbox's and a lone wallet's live recovery
   * points, where it follows the statement: a crash in between leaves the key bound to a transaction
   * never written, which IdempotencyStore treats as absent).
   */
  private async insert(on: Db | Transaction<DB>, built: Built[], chained: boolean, alongside?: RawBuilder<unknown>): Promise<Inserted> {
    const seen = new Set<string>();
    const keyed = built.filter(({ item }) => item.key && !seen.has(scopeId(item.key.scope)) && seen.add(scopeId(item.key.scope)));
    const first = new Set(keyed);
    const candidates = built.filter((b) => !b.item.key || first.has(b));
    const unkeyed = JSON.stringify(candidates.flatMap((b) => (b.item.key ? [] : [b.row.id])));
    const free = sql`v.txn_id NOT IN (SELECT id FROM held)`;
    const claims = this.idempotency.claimsInsert(keyed.map(({ item, row, response }) => ({ scope: item.key!.scope, hash: item.key!.hash, txnId: row.id, response })), free);
    const audits = chained ? candidates.flatMap((b) => (b.audit ? [{ ...b.audit, keep: b.row.id }] : [])) : [];
    // A lone live call's recovery point (a quiet server's every live call): kept prepared by the embedded
    // engine (db/prepared.ts). The sandbox's is not: its generic plan ran slower there, alone too.
    const statement = sql<{ id: string; how: 'recorded' | 'held' | 'claimed' }>`
      WITH held AS (${this.transactions.referencesHeld(candidates.map((b) => b.values))}),
      claimed AS (${claims}),
      recorded AS (${this.transactions.insertStatement(
        candidates.map((b) => b.values),
        sql`v.id = ANY(ARRAY(SELECT txn_id FROM claimed UNION ALL SELECT jsonb_array_elements_text(${unkeyed}::jsonb))) AND v.id NOT IN (SELECT id FROM held)`,
      )} RETURNING id)
      ${audits.length > 0 ? sql`, ${chainedCtes(audits, sql`v.keep IN (SELECT id FROM recorded)`)}` : sql``}
      ${alongside ? sql`, ${alongside}` : sql``}
      SELECT id, 'recorded' AS how FROM recorded
      UNION ALL SELECT id, 'held' FROM held
      UNION ALL SELECT txn_id, 'claimed' FROM claimed WHERE txn_id NOT IN (SELECT id FROM recorded)`;
    const inserted = await preparedIf(built.length === 1 && alongside !== undefined, statement).execute(on);
    const how = new Map(inserted.rows.map((r) => [r.id, r.how]));
    // Claimed but not recorded: a concurrent request took the reference first. Unkeyed and not recorded: the same.
    const raced = candidates.filter((b) => how.get(b.row.id) === 'claimed' || (!b.item.key && !how.has(b.row.id)));
    await this.idempotency.unbind(on, raced.filter((b) => b.item.key).map((b) => b.row.id));
    return {
      recorded: candidates.filter((b) => how.get(b.row.id) === 'recorded'),
      referenceTaken: new Set([...raced, ...candidates.filter((b) => how.get(b.row.id) === 'held')]),
    };
  }

  private outcomes(built: Built[], { recorded, referenceTaken }: Inserted): Recorded[] {
    const ok = new Set(recorded);
    return built.map((b) => (ok.has(b) ? { kind: 'recorded', row: b.row, stored: b.values.result as string } : referenceTaken.has(b) ? { kind: 'reference_taken' } : { kind: 'key_taken' }));
  }
}

/** The sealed notes of a batch's recordings. */
const notesOf = (built: Built[]): SealedNote[] => built.flatMap((b) => (b.item.note ? [b.item.note] : []));

/**
 * The holds of a batch that can go in the one statement of its keys and rows (ledger.ts holdCtes): every
 * recording holds on one wallet, with no reserve, no audit row and no write of its own; else null.
 */
function alone(built: Built[]): HoldSpec[] | null {
  const holds = built.flatMap(({ item, audit }) => (item.hold && !(item.hold.reservedPaise ?? 0) && item.afterRecord.length === 0 && !audit ? [item.hold] : []));
  return holds.length === built.length && holds.every((h) => h.accountId === holds[0]!.accountId) ? holds : null;
}
