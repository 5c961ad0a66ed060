// Owns the Prometheus metrics at /metrics (prom-client): partner latency and results, circuit breaker
// states, live pendings (count and age, read from the store at scrape time), and the store counters
// (statements, embedded engine CPU: db/stats.ts), and the prepaid partners' float drift (src/float/:
// the last conclusive check's drift, how old that check is, the open drift items), read from the store
// at scrape time so every process of a cluster answers the same; and the validations a recent payee
// verification saved (operations/vpa-verification/reuse.ts).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import type { Db } from './db/client.js';
import { engineCpuSeconds, storeStats } from './db/stats.js';

const BREAKER = { close: 0, halfOpen: 1, open: 2 } as const;

export class Metrics {
  readonly registry = new Registry();
  private latency = new Histogram({
    name: 'sangam_partner_request_duration_seconds',
    help: 'Partner call latency by partner, operation and result',
    labelNames: ['partner', 'operation', 'result'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private errors = new Counter({
    name: 'sangam_partner_errors_total',
    help: 'Partner calls that failed, by partner, operation and kind (unavailable, timeout, no_answer, breaker_open)',
    labelNames: ['partner', 'operation', 'kind'],
    registers: [this.registry],
  });
  private reused = new Counter({
    name: 'sangam_payee_verification_reused_total',
    help: "Validations not paid for because a recent verification answered instead (a payout's name check using a vpa-verification), by operation and environment",
    labelNames: ['operation', 'environment'],
    registers: [this.registry],
  });
  private alarms = new Counter({
    name: 'sangam_partner_alarms_total',
    help: 'Things a connector could not put right at once and keeps retrying (kind: token_revoke_failed, …), by partner',
    labelNames: ['partner', 'kind'],
    registers: [this.registry],
  });
  private phases = new Histogram({
    name: 'sangam_call_phase_seconds',
    help: "An operation call's time by phase (http/server-timing.ts): checks, record (claim, hold, pending row), partner, outcome, and sangam (the whole call less the partner's time)",
    labelNames: ['operation', 'environment', 'phase'],
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private breaker = new Gauge({
    name: 'sangam_partner_breaker_state',
    help: 'Circuit breaker state per partner: 0 closed, 1 half-open, 2 open',
    labelNames: ['partner'],
    registers: [this.registry],
  });

  constructor(db: Db) {
    collectDefaultMetrics({ register: this.registry, prefix: 'sangam_' });
    // Counters kept by the store layer (db/stats.ts), copied in at scrape time.
    const copied = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    copied('sangam_store_statements_total', 'Statements sent to the store, BEGIN and COMMIT included', () => storeStats.statements);
    copied('sangam_store_engine_seconds_total', 'Embedded store: CPU time of its engine thread', engineCpuSeconds);
    const pending = new Gauge({ name: 'sangam_pending_transactions', help: 'Pending transactions by environment', labelNames: ['environment'], registers: [this.registry] });
    const age = new Gauge({ name: 'sangam_pending_oldest_age_seconds', help: 'Age of the oldest pending transaction', labelNames: ['environment'], registers: [this.registry] });
    const review = new Gauge({ name: 'sangam_manual_review_transactions', help: 'Live pendings waiting for a person', registers: [this.registry] });
    const collect = async () => {
      const rows = await sql<{ environment: string; n: number; oldest: number | null; review: number }>`
        SELECT environment, COUNT(*)::int AS n, EXTRACT(EPOCH FROM now() - MIN(created_at))::float8 AS oldest,
               COUNT(*) FILTER (WHERE review_reason IS NOT NULL)::int AS review
        FROM transactions WHERE status = 'pending' GROUP BY environment`.execute(db);
      pending.reset();
      age.reset();
      review.set(0);
      for (const r of rows.rows) {
        pending.set({ environment: r.environment }, r.n);
        age.set({ environment: r.environment }, r.oldest ?? 0);
        if (r.environment === 'live') review.set(r.review);
      }
    };
    this.collectPending = collect;
    this.floatGauges(db);
  }

  /**
   * sangam_float_drift_paise{partner}: the partner's balance less what Sangam's books say it should
   * hold, at the last conclusive check (0: they agree); sangam_float_check_age_seconds{partner}: how old
   * that check is (it grows while the balance cannot be read); sangam_float_open_drifts{partner}: drift
   * items waiting in Needs attention. Alert rules: docs/RELIABILITY.md, "Float reconciliation".
   */
  private floatGauges(db: Db): void {
    const read = () =>
      sql<{ partner: string; drift: number | null; age: number | null; open: number }>`
        SELECT c.partner, c.drift_paise AS drift,
               CASE WHEN c.drift_paise IS NULL THEN NULL ELSE EXTRACT(EPOCH FROM now() - c.checked_at)::float8 END AS age,
               (SELECT COUNT(*) FROM float_drifts d WHERE d.partner = c.partner AND d.state = 'open')::int AS open
        FROM float_checks c`.execute(db);
    const gauge = (name: string, help: string, value: (r: { drift: number | null; age: number | null; open: number }) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['partner'],
        registers: [this.registry],
        async collect() {
          const { rows } = await read();
          this.reset();
          for (const r of rows) {
            const v = value(r);
            if (v !== null) this.set({ partner: r.partner }, Number(v));
          }
        },
      });
    gauge('sangam_float_drift_paise', "Prepaid partner's float balance less what Sangam's books expect, at the last conclusive check (paise)", (r) => r.drift);
    gauge('sangam_float_check_age_seconds', "Age of the last conclusive check of the partner's float", (r) => r.age);
    gauge('sangam_float_open_drifts', 'Float drift items waiting in Needs attention', (r) => r.open);
  }

  /** Refreshes the store-backed gauges; called before each scrape. */
  collectPending: () => Promise<void>;

  /** One call's phases (milliseconds) and its whole time. */
  callPhases(operation: string | undefined, environment: string | undefined, phases: ReadonlyMap<string, number>, totalMs: number): void {
    const labels = { operation: operation ?? 'other', environment: environment ?? 'none' };
    for (const [phase, ms] of phases) this.phases.observe({ ...labels, phase }, ms / 1000);
    this.phases.observe({ ...labels, phase: 'sangam' }, (totalMs - (phases.get('partner') ?? 0)) / 1000);
  }

  partnerCall(partner: string, operation: string, result: string, ms: number): void {
    this.latency.observe({ partner, operation, result }, ms / 1000);
    if (!['success', 'failed', 'pending'].includes(result)) this.errors.inc({ partner, operation, kind: result });
  }

  /** A recent `operation` (vpa-verification) answered a payout's name check instead of a new validation. */
  verificationReused(operation: string, environment: string): void {
    this.reused.inc({ operation, environment });
  }

  /** One alarm a connector raised (PartnerRouteHooks.warn). */
  partnerAlarm(partner: string, kind: string): void {
    this.alarms.inc({ partner, kind });
  }

  breakerState(partner: string, state: keyof typeof BREAKER): void {
    this.breaker.set({ partner }, BREAKER[state]);
  }
}
