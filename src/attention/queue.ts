// Owns reading what needs a person, for the console and the CLI: the "Needs attention" queue (live
// transactions that are overdue pendings, pendings in manual review, transactions with a conflict flag,
// or with a resolution waiting for a second admin; beside them the prepaid partners' float drifts,
// attention/float.ts), its counts (the console badge, drifts included), and one
// transaction's page: the row, its hold, its whole partner history and its resolutions.
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { paiseToInr } from '../money.js';
import { redact } from '../audit/redact.js';
import { historyOf } from '../transactions/partner-events.js';
import { TransactionStore } from '../transactions/store.js';
import { fitting, resolutionsOf, type Resolution } from './resolutions.js';
import type { Expectations } from './expectations.js';

export const REASONS = ['overdue', 'review', 'flagged', 'proposed'] as const;
export type Reason = (typeof REASONS)[number];

/** Each reason as a condition on `t` (transactions), `o` (its overdue note) and `r` (its open resolution). */
const WHEN: Record<Reason, ReturnType<typeof sql>> = {
  overdue: sql`(t.status = 'pending' AND o.txn_id IS NOT NULL)`,
  review: sql`(t.status = 'pending' AND t.review_reason IS NOT NULL)`,
  flagged: sql`(t.flagged IS NOT NULL)`,
  proposed: sql`(r.id IS NOT NULL)`,
};

interface Row {
  id: string;
  account_id: string;
  account_name: string;
  operation: string;
  reference_id: string;
  status: string;
  amount_paise: number | null;
  partner: string | null;
  checks: number;
  review_reason: string | null;
  flagged: string | null;
  created_at: Date;
  overdue_since: Date | null;
  expected_final_s: number | null;
  proposal_id: string | null;
  proposal_action: string | null;
  proposed_by: string | null;
}

/**
 * Live transactions needing attention, as `t` with `a` (its account), `o` (its overdue note) and `r`
 * (its open resolution). Candidates come from the small sets (live pendings, flags, open proposals)
 * through their partial indexes, never from a scan of every transaction.
 */
const CANDIDATES = sql`
  (SELECT id FROM transactions WHERE status = 'pending' AND environment = 'live'
   UNION SELECT id FROM transactions WHERE flagged IS NOT NULL AND environment = 'live'
   UNION SELECT txn_id FROM resolutions WHERE state = 'proposed') AS c
  JOIN transactions t ON t.id = c.id
  JOIN accounts a ON a.id = t.account_id
  LEFT JOIN partner_events o ON o.txn_id = t.id AND o.kind = 'overdue'
  LEFT JOIN resolutions r ON r.txn_id = t.id AND r.state = 'proposed'`;

const ANY = sql`(${sql.join(REASONS.map((r) => WHEN[r]), sql` OR `)})`;

/** The queue, oldest first; `reason` keeps one kind. */
export async function attentionQueue(db: Db, opts: { reason?: Reason; limit: number }) {
  const { rows } = await sql<Row>`
    SELECT t.id, t.account_id, a.name AS account_name, t.operation, t.reference_id, t.status, t.amount_paise, t.partner, t.checks,
           t.review_reason, t.flagged, t.created_at, o.at AS overdue_since, (o.detail->>'expected_final_s')::int AS expected_final_s,
           r.id AS proposal_id, r.action AS proposal_action, r.proposed_by
    FROM ${CANDIDATES}
    WHERE ${opts.reason ? WHEN[opts.reason] : ANY}
    ORDER BY t.created_at, t.id
    LIMIT ${opts.limit}`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    account_id: r.account_id,
    account_name: r.account_name,
    operation: r.operation,
    reference_id: r.reference_id,
    status: r.status,
    amount: r.amount_paise === null ? null : paiseToInr(r.amount_paise),
    partner: r.partner,
    checks: r.checks,
    reasons: REASONS.filter((x) => reasonHolds(x, r)),
    review_reason: r.review_reason,
    flagged: r.flagged,
    created_at: r.created_at.toISOString(),
    overdue_since: r.overdue_since?.toISOString() ?? null,
    expected_final_s: r.expected_final_s,
    proposal: r.proposal_id ? { id: r.proposal_id, action: r.proposal_action, proposed_by: r.proposed_by } : null,
  }));
}

function reasonHolds(reason: Reason, r: Row): boolean {
  switch (reason) {
    case 'overdue':
      return r.status === 'pending' && r.overdue_since !== null;
    case 'review':
      return r.status === 'pending' && r.review_reason !== null;
    case 'flagged':
      return r.flagged !== null;
    case 'proposed':
      return r.proposal_id !== null;
  }
}

/**
 * How many items need attention, in all and per reason: the console's badge. `float`: open float
 * drifts (one per partner at most), counted in the total beside the transactions (each once).
 */
export async function attentionCounts(db: Db): Promise<Record<Reason | 'float' | 'total', number>> {
  const { rows } = await sql<Record<Reason | 'float' | 'total', number>>`
    SELECT COUNT(*) FILTER (WHERE ${ANY})::int + (SELECT COUNT(*) FROM float_drifts WHERE state = 'open')::int AS total,
           ${sql.join(REASONS.map((r) => sql`COUNT(*) FILTER (WHERE ${WHEN[r]})::int AS ${sql.ref(r)}`))},
           (SELECT COUNT(*) FROM float_drifts WHERE state = 'open')::int AS float
    FROM ${CANDIDATES}`.execute(db);
  return rows[0]!;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** What every proposal shows of its maker-checker life: a transaction's resolution and a float drift's alike. */
export const decisionView = (r: Pick<Resolution, 'state' | 'reason' | 'evidence' | 'proposed_by' | 'proposed_at' | 'decided_by' | 'decided_at' | 'decision_reason'>) => ({
  state: r.state,
  reason: r.reason,
  evidence: r.evidence,
  proposed_by: r.proposed_by,
  proposed_at: r.proposed_at.toISOString(),
  decided_by: r.decided_by,
  decided_at: iso(r.decided_at),
  decision_reason: r.decision_reason,
});

export const resolutionView = (r: Resolution) => ({ id: r.id, txn_id: r.txn_id, action: r.action, ...decisionView(r) });

/** One transaction's page; undefined when there is no such transaction. */
export async function transactionPage(db: Db, txnId: string, expectations: Expectations | null) {
  const transactions = new TransactionStore(db);
  const facts = await transactions.facts(txnId);
  if (!facts) return undefined;
  const t = await transactions.detail(txnId);
  const history = await historyOf(db, txnId);
  const overdue = facts.status === 'pending' && history.some((e) => e.kind === 'overdue');
  return {
    transaction: {
      ...facts,
      account_name: t.account_name,
      reference_id: t.reference_id,
      amount: t.amount_paise === null ? null : paiseToInr(t.amount_paise),
      hold: t.hold_paise === null ? null : { amount: paiseToInr(t.hold_paise), status: t.hold_status },
      partner_ref: t.partner_ref,
      checks: t.checks,
      next_check_at: iso(t.next_check_at),
      created_at: t.created_at.toISOString(),
      verified_at: iso(t.verified_at),
      expected_final_s: expectations?.of(facts.partner) ?? null,
      overdue,
      // What the client was answered, as the audit store would keep it.
      result: redact(t.result),
    },
    actions: facts.environment === 'live' ? fitting(facts) : [],
    history,
    resolutions: (await resolutionsOf(db, txnId)).map(resolutionView),
  };
}
