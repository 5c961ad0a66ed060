// Owns overdue live pendings: a pending older than its partner's expectation (expectations.ts). The
// watch looks every SANGAM_OVERDUE_POLL_MS and notes each newly overdue transaction once in its
// history (an `overdue` event; a unique index keeps it once however many server processes look), and
// logs one warn line for it then — never again, however often it is scraped or looked at. Overdue is
// what has been noted and is still pending: the metric sangam_overdue_transactions{partner}, the
// console's queue and its badge all read it the same way.
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/client.js';
import type { BackgroundWorker } from '../background-worker.js';
import { PollingLoop } from '../polling-loop.js';
import type { Expectations } from './expectations.js';

/** How many newly overdue transactions one look notes at most (the next look takes the rest). */
const BATCH = 500;

/** The label of pendings no partner holds. */
const NO_PARTNER = 'none';

/** Live pendings that have been noted overdue, by partner: the one definition every reader shares. */
export async function overdueByPartner(db: Db): Promise<Map<string, number>> {
  const { rows } = await sql<{ partner: string | null; n: number }>`
    SELECT t.partner, COUNT(*)::int AS n FROM transactions t
    JOIN partner_events e ON e.txn_id = t.id AND e.kind = 'overdue'
    WHERE t.status = 'pending' AND t.environment = 'live'
    GROUP BY t.partner`.execute(db);
  return new Map(rows.map((r) => [r.partner ?? NO_PARTNER, r.n]));
}

export class OverdueWatch implements BackgroundWorker {
  readonly name = 'overdue watch';
  private loop: PollingLoop;

  constructor(
    private db: Db,
    private expectations: Expectations,
    pollMs: number,
    private log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(pollMs, () => this.tick(), (err) => log.error({ err }, 'overdue watch failed'));
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Notes the pendings that became overdue since the last look, logs each once; returns how many. */
  async tick(): Promise<number> {
    const table = [...this.expectations.table(), { partner: '', seconds: this.expectations.fallbackS }];
    const limits = sql.join(table.map((e) => sql`(${e.partner}::text, ${e.seconds}::int)`));
    const { rows } = await sql<{ txn_id: string; partner: string | null; operation: string; expected_final_s: number; age_s: number }>`
      WITH due AS (
        SELECT t.id, t.partner, t.operation, COALESCE(x.seconds, ${this.expectations.fallbackS}::int) AS expected_final_s,
               FLOOR(EXTRACT(EPOCH FROM now() - t.created_at))::int AS age_s
        FROM transactions t
        LEFT JOIN (VALUES ${limits}) AS x (partner, seconds) ON x.partner = COALESCE(t.partner, '')
        WHERE t.status = 'pending' AND t.environment = 'live'
          AND t.created_at < now() - make_interval(secs => COALESCE(x.seconds, ${this.expectations.fallbackS}::int))
          AND NOT EXISTS (SELECT 1 FROM partner_events e WHERE e.txn_id = t.id AND e.kind = 'overdue')
        ORDER BY t.created_at LIMIT ${BATCH}
      ), noted AS (
        INSERT INTO partner_events (txn_id, partner, kind, status, detail)
        SELECT id, partner, 'overdue', 'pending', jsonb_build_object('expected_final_s', expected_final_s, 'age_s', age_s) FROM due
        ON CONFLICT (txn_id) WHERE kind = 'overdue' DO NOTHING
        RETURNING txn_id
      )
      SELECT due.id AS txn_id, due.partner, due.operation, due.expected_final_s, due.age_s FROM due JOIN noted ON noted.txn_id = due.id`.execute(this.db);
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
