// Owns reconciliation of live transactions with their partners, in two watches:
//   - pendings that no callback has settled: at each due time (after NPCI's norm: first after 90 s,
//     then spaced out, SANGAM_RECONCILE_SCHEDULE; or the partner's own etiquette) a status enquiry to
//     the partner that holds the transaction (or to every partner on the route when none is recorded),
//     and a final answer applied with its ledger effect. A transaction no partner has a record of, once
//     older than any request could still be in flight, never executed: it is failed and its hold
//     released — when a partner took it, only after two enquiries in a row found nothing (a lookup may
//     lag the create). Past the cutoff it goes to manual review, hold intact.
//   - the reversal watch (CONTRACT §9): a success its partner can still undo is asked about again at
//     each time of the partner's schedule after the success (SANGAM_REVERSAL_WATCH_SCHEDULE overrides),
//     so that a reversal whose webhooks never arrived is still found and posted (once: settlement).
// Due rows are leased with FOR UPDATE SKIP LOCKED, so with several server processes each transaction
// gets one enquiry per due time. An enquiry never creates anything at a partner (the connectors look up
// by our reference).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { PartnerRouter } from '../providers/router.js';
import type { TransactionStore } from '../transactions/store.js';
import type { Settlement } from './settlement.js';

/** What the reconciler reads and settles through. */
export interface ReconcilerDeps {
  db: Db;
  config: Pick<Config, 'reconcile' | 'reversalWatchS' | 'partner'>;
  partners: PartnerRouter | null;
  settlement: Settlement;
  transactions: TransactionStore;
}
import type { OperationSlug, PartnerReport } from '../providers/connector.js';
import type { EnquiryRow } from '../transactions/store.js';
import { PollingWorker } from '../polling-loop.js';
import * as partnerHistory from '../transactions/partner-events.js';

const BATCH = 20;

export class Reconciler extends PollingWorker {
  readonly name = 'reconciler';

  constructor(
    private services: ReconcilerDeps,
    private log: FastifyBaseLogger,
  ) {
    super(services.config.reconcile.pollMs, log);
  }

  /** Without partners there is nothing to ask. */
  override start(): void {
    if (this.services.partners) super.start();
  }

  /** Leases due pendings and due reversal watches and asks about each; returns how many were asked about. */
  async tick(): Promise<number> {
    return (await this.pendings()) + (await this.watches());
  }

  private async pendings(): Promise<number> {
    const due = await this.services.transactions.leaseEnquiries('check', BATCH, this.services.config.reconcile.leaseS);
    for (const row of due) await this.check(row);
    return due.length;
  }

  /**
   * When to ask next, and when to give up to manual review: SANGAM_RECONCILE_SCHEDULE when it is set,
   * otherwise the polling etiquette of the partner holding the transaction (its documented defaults, or
   * its POLL_* variables), otherwise the default schedule.
   */
  private cadence(partner: string | null, checks: number): { nextS: number; cutoffS: number; firstS?: number } {
    const { reconcile } = this.services.config;
    const own = !reconcile.explicit && partner ? this.services.partners!.polling(partner) : null;
    if (own) return { nextS: own.gapS, cutoffS: own.cutoffS, firstS: own.firstS };
    return { nextS: reconcile.scheduleS[Math.min(checks, reconcile.scheduleS.length - 1)]!, cutoffS: reconcile.cutoffS };
  }

  private async check(row: EnquiryRow): Promise<void> {
    const { partners, config, db, settlement, transactions } = this.services;
    const firstS = this.cadence(row.partner, row.checks).firstS;
    if (firstS !== undefined && row.checks === 0 && Date.now() - row.created_at.getTime() < firstS * 1000) {
      // Too early for this partner's etiquette: come back at its first-check time, without asking.
      await transactions.setNextCheck(db, row.id, new Date(row.created_at.getTime() + firstS * 1000));
      return;
    }
    const asked = row.partner ? [row.partner] : partners!.route(row.operation);
    const tx = this.txRef(row);
    let report: PartnerReport | null = null;
    let answeredBy = '';
    let unreachable = false;
    for (const p of asked) {
      try {
        report = await partnerHistory.enquiry(db, this.log, { txnId: row.id, partner: p }, () => partners!.status(p, tx)); // recorded in the partner history (transactions/partner-events.ts)
        answeredBy = p;
      } catch (err) {
        unreachable = true;
        this.log.warn({ err, txn_id: row.id, partner: p }, 'status enquiry failed');
      }
      if (report) break;
    }
    if (report && report.outcome.status !== 'pending') {
      const result = await settlement.apply({ ...report, txnId: row.id }, answeredBy, null);
      this.log.info({ txn_id: row.id, result }, 'reconciled by status enquiry');
      return;
    }
    const ageMs = Date.now() - row.created_at.getTime();
    // The longest a request can still be on its way: every partner of the route tried in turn, each up
    // to its deadline (timers fire up to a second late), doubled for safety.
    const maxTimeout = Math.max(config.partner.timeoutMs, ...Object.values(config.partner.timeouts));
    const inFlightBoundMs = 2 * asked.length * (maxTimeout + 1000);
    // No partner has a record of it (asked by our reference), and no request for it can still be in
    // flight. One that took it but gave no id of its own is asked twice first: a lookup may lag.
    const misses = !report && !unreachable ? row.misses + 1 : 0;
    if (misses > 0 && ageMs > inFlightBoundMs && (!row.partner || misses >= 2)) {
      await db.transaction().execute((trx) => settlement.failUnsent(trx, row.id, row.operation, 'The request never reached the partner network; nothing was paid or debited'));
      this.log.warn({ txn_id: row.id, partner: row.partner }, 'no partner has a record of the request: failed, hold released');
      return;
    }
    const checks = row.checks + 1;
    const { nextS, cutoffS } = this.cadence(row.partner, checks);
    const overdue = ageMs / 1000 + nextS > cutoffS;
    await transactions.checked(row.id, {
      checks,
      misses,
      nextAt: overdue ? null : new Date(Date.now() + nextS * 1000),
      reviewReason: overdue ? `No final status from the partner after ${checks} status enquiries over ${Math.round(ageMs / 1000)} s` : null,
    });
    if (overdue) this.log.warn({ txn_id: row.id, checks }, 'pending sent to manual review; hold kept');
  }

  /** Leases successes due for a reversal-watch enquiry and asks their partner about each. */
  private async watches(): Promise<number> {
    const due = await this.services.transactions.leaseEnquiries('watch', BATCH, this.services.config.reconcile.leaseS);
    for (const row of due) await this.watch(row);
    return due.length;
  }

  /**
   * One reversal-watch enquiry: a reversal found is posted (settlement, exactly once); any other final
   * answer that disagrees is flagged there. Then the next time of the schedule, or the end of the watch.
   * A partner that cannot be asked now is asked again when the lease runs out (SANGAM_RECONCILE_LEASE_S).
   */
  private async watch(row: EnquiryRow): Promise<void> {
    const { partners, settlement, transactions, db } = this.services;
    // A partner without a schedule is asked only when a connector asked for a recheck (recheck()).
    const schedule = settlement.watch(row.partner ?? undefined, row.operation) ?? [];
    if (!row.partner || !row.verified_at) {
      await transactions.watched(db, row.id, row.watch_checks, null);
      return;
    }
    let report: PartnerReport | null;
    try {
      report = await partnerHistory.enquiry(db, this.log, { txnId: row.id, partner: row.partner }, () => partners!.status(row.partner!, this.txRef(row))); // recorded in the partner history (transactions/partner-events.ts)
    } catch (err) {
      this.log.warn({ err, txn_id: row.id, partner: row.partner }, 'reversal watch: status enquiry failed; asked again later');
      return;
    }
    if (report && report.outcome.status !== 'pending') {
      const result = await settlement.apply({ ...report, txnId: row.id }, row.partner, null);
      if (result === 'reversed') this.log.warn({ txn_id: row.id, partner: row.partner }, 'reversal found by the reversal watch: posted');
      else if (result === 'conflict' || result === 'mismatch') this.log.warn({ txn_id: row.id, partner: row.partner, result }, 'reversal watch: the partner disagrees; flagged');
    }
    const checks = row.watch_checks + 1;
    const nextS = schedule[checks];
    await transactions.watched(db, row.id, checks, nextS === undefined ? null : new Date(row.verified_at.getTime() + nextS * 1000));
  }

  private txRef(row: EnquiryRow) {
    return {
      txnId: row.id,
      operation: row.operation as OperationSlug,
      partnerRef: row.partner_ref,
      amountPaise: row.principal_paise || null,
      commissionPaise: row.commission_paise ?? 0,
    };
  }
}
