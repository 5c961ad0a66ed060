// Owns overdue live pendings: a pending older than its partner's expectation (expectations.ts). The
// watch looks every SANGAM_OVERDUE_POLL_MS and notes each newly overdue transaction once in its
// history (an `overdue` event; a unique index keeps it once however many server processes look), and
// logs one warn line for it then — never again, however often it is scraped or looked at. Overdue is
// what has been noted and is still pending: the metric sangam_overdue_transactions{partner}, the
// console's queue and its badge all read it the same way.
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/client.js';
import { PollingWorker } from '../polling-loop.js';
import { noteOverdue, overdueByPartner } from '../transactions/partner-events.js';
import type { Expectations } from './expectations.js';

/** How many newly overdue transactions one look notes at most (the next look takes the rest). */
const BATCH = 500;

export class OverdueWatch extends PollingWorker {
  readonly name = 'overdue watch';

  constructor(
    private db: Db,
    private expectations: Expectations,
    pollMs: number,
    private log: FastifyBaseLogger,
  ) {
    super(pollMs, log);
  }

  /** Notes the pendings that became overdue since the last look, logs each once; returns how many. */
  async tick(): Promise<number> {
    const rows = await noteOverdue(this.db, this.expectations.table(), this.expectations.fallbackS, BATCH);
    for (const r of rows) {
      this.log.warn({ txn_id: r.txn_id, partner: r.partner, operation: r.operation, expected_final_s: r.expected_final_s, age_s: r.age_s }, 'transaction overdue: still pending past its partner\'s expectation');
    }
    return rows.length;
  }

  /** sangam_overdue_transactions{partner}, read from the store at each scrape; 0 for a partner with none. */
  registerMetric(registry: Registry): void {
    const { db, expectations } = this;
    new Gauge({
      name: 'sangam_overdue_transactions',
      help: 'Live pendings past their partner\'s expectation of a final status (partner "none": no partner holds it yet)',
      labelNames: ['partner'],
      registers: [registry],
      async collect() {
        const counts = await overdueByPartner(db);
        this.reset();
        for (const { partner } of expectations.table()) this.set({ partner }, 0);
        for (const [partner, n] of counts) this.set({ partner }, n);
      },
    });
  }
}
