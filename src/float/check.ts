// Owns the float check: every SANGAM_FLOAT_CHECK_MS, for each partner that keeps a prepaid float and
// can read it (a connector with `float` and `floatBalance()`, today Setu's recharge wallet), the
// partner's balance is compared with what Sangam's books say it should hold (store.ts `expected`).
//
// A read is conclusive only when the books did not move while the partner was asked (the expectation
// is taken before and after the read, and must agree); otherwise the next tick tries again. A drift
// (actual − expected, in paise) seen on SANGAM_FLOAT_CONFIRM_CHECKS conclusive checks in a row — so an
// operation caught between the partner's books and ours does not raise one — becomes the partner's
// item in the "Needs attention" queue, with the transactions whose amounts explain it (candidates.ts);
// the item follows the drift while it lasts and closes itself when a check finds none. A drift an
// admin dismissed does not reopen for the same amount. No opening balance recorded, or a balance that
// cannot be read, is kept as the check's error (the metric's age grows; nothing is concluded).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import type { FloatCandidates } from '../db/schema.js';
import { PollingWorker } from '../polling-loop.js';
import { PartnerError } from '../providers/connector.js';
import type { FloatAccount } from '../providers/router.js';
import { DEFAULT_BOUNDS, members, subsetsSumming, type Bounds } from './candidates.js';
import * as store from './store.js';

export interface FloatCheckDeps {
  db: Db;
  /** The partners with a float, as configured now. */
  floats: () => FloatAccount[];
  /** Conclusive checks in a row that must see the same drift before it becomes an item. */
  confirmChecks: number;
  /** SANGAM_FLOAT_WINDOW_S: replaces every partner's reversal window (seconds). */
  windowS: number | null;
  bounds?: Bounds;
}

/** What one partner's check found. */
export type FloatOutcome =
  | { partner: string; state: 'unanchored' | 'unreadable' | 'inconclusive'; error?: string }
  | { partner: string; state: 'balanced'; expected: number; actual: number; cleared: string | null }
  | { partner: string; state: 'drift'; expected: number; actual: number; drift: number; streak: number; item: string | null };

/** How many recent candidates the subset search looks at. */
const CANDIDATES = 64;

export class FloatCheck extends PollingWorker {
  readonly name = 'float check';

  constructor(
    private d: FloatCheckDeps,
    pollMs: number,
    private log: FastifyBaseLogger,
  ) {
    super(pollMs, log);
  }

  /** Checks every partner's float once; one partner's failure does not stop the others. */
  async tick(): Promise<FloatOutcome[]> {
    const out: FloatOutcome[] = [];
    for (const account of this.d.floats()) {
      try {
        out.push(await this.check(account));
      } catch (err) {
        this.log.error({ err, partner: account.partner }, 'float check failed');
      }
    }
    return out;
  }

  async check(a: FloatAccount): Promise<FloatOutcome> {
    const { db } = this.d;
    const partner = a.partner;
    const opening = await store.latestOpening(db, partner);
    if (!opening) {
      const error = `no opening balance is recorded for ${partner}: sangam float opening --partner ${partner} --amount INR`;
      await store.saveError(db, partner, error);
      return { partner, state: 'unanchored', error };
    }
    const books = async () => {
      await store.sync(db, partner, a.terms.operations, opening);
      return store.expected(db, partner, a.terms.operations, opening);
    };
    const before = await books();
    let actual: number;
    try {
      actual = (await a.balance()).balancePaise;
    } catch (err) {
      if (!(err instanceof PartnerError)) throw err;
      await store.saveError(db, partner, err.message);
      this.log.warn({ partner, err: err.message }, 'float check: the partner balance could not be read');
      return { partner, state: 'unreadable', error: err.message };
    }
    const expected = await books();
    if (expected !== before) return { partner, state: 'inconclusive' };
    const check = await store.saveCheck(db, partner, { expected, actual });
    const drift = actual - expected;
    if (drift === 0) return { partner, state: 'balanced', expected, actual, cleared: await this.clear(partner) };
    return { partner, state: 'drift', expected, actual, drift, streak: check.streak, item: await this.raise(a, opening, { expected, actual, streak: check.streak }) };
  }

  /** Closes the partner's open item, if any: the books and the partner agree again. */
  private async clear(partner: string): Promise<string | null> {
    const open = await store.openDrift(this.d.db, partner);
    if (!open || !(await store.closeDrift(this.d.db, open.id, { state: 'cleared', by: store.SYSTEM, reason: 'a check found the float as Sangam expects it' }))) return null;
    this.log.info({ partner, item: open.id }, 'float drift cleared');
    return open.id;
  }

  /** Opens or updates the partner's item once the drift is confirmed; its id, or null (not yet, or dismissed). */
  private async raise(a: FloatAccount, opening: store.Movement, c: { expected: number; actual: number; streak: number }): Promise<string | null> {
    const { db } = this.d;
    const drift = c.actual - c.expected;
    if (c.streak < this.d.confirmChecks) return null;
    const open = await store.openDrift(db, a.partner);
    if (!open && (await store.lastDismissed(db, a.partner))?.drift_paise === drift) return null;
    const candidates = await this.candidates(a, opening, drift);
    const { drift: item, opened } = await store.upsertDrift(db, a.partner, { drift, expected: c.expected, actual: c.actual, candidates });
    if (opened || open?.drift_paise !== drift) {
      this.log.warn(
        { partner: a.partner, item: item.id, drift_paise: drift, expected_paise: c.expected, actual_paise: c.actual, candidates: candidates.transactions.map((t) => t.txn_id) },
        "float drift: the partner's balance differs from Sangam's books (Needs attention)",
      );
    }
    return item.id;
  }

  /** The transactions inside the partner's reversal window whose amounts sum exactly to the drift. */
  async candidates(a: FloatAccount, opening: store.Movement, drift: number): Promise<FloatCandidates> {
    const windowS = this.d.windowS ?? a.terms.reversalWindowS;
    const rows = await store.candidateRows(this.d.db, { partner: a.partner, operations: a.terms.operations, opening, from: new Date(Date.now() - windowS * 1000), drift, limit: CANDIDATES });
    const bounds = this.d.bounds ?? DEFAULT_BOUNDS;
    const { sets, exhaustive } = subsetsSumming(rows.map((r) => r.amount_paise), Math.abs(drift), bounds);
    const uses = new Map<number, number>();
    for (const s of sets) for (const i of s) uses.set(i, (uses.get(i) ?? 0) + 1);
    // Every candidate that is part of some exact explanation, found or not by the bounded search.
    (members(rows.map((r) => r.amount_paise), Math.abs(drift)) ?? []).forEach((m, i) => m && !uses.has(i) && uses.set(i, 0));
    const named = [...uses.keys()].sort((x, y) => uses.get(y)! - uses.get(x)! || x - y);
    const notes = [
      sets.length === 0 ? `no set of up to ${bounds.maxSize} of the ${rows.length} candidate transactions inside the reversal window sums to the drift` : null,
      a.terms.statement ? null : `${a.partner} offers no statement through its API: candidates are matched by amount; confirm with the partner's statement before posting`,
    ].filter((n): n is string => n !== null);
    return {
      sets: sets.map((s) => s.map((i) => rows[i]!.id)),
      exhaustive,
      transactions: named.map((i) => {
        const r = rows[i]!;
        return { txn_id: r.id, account_id: r.account_id, reference_id: r.reference_id, status: r.status, amount_paise: r.amount_paise, created_at: r.created_at.toISOString(), sets: uses.get(i)! };
      }),
      note: notes.length ? notes.join('; ') : null,
    };
  }
}
