// Owns the wiring of the batches room for one server process: its store, the engine (handed the
// operations' runners), the worker, and what submissions need. app.ts builds it, hands it to its routes
// (routes/api/v1/batches.ts, routes/console/api/batches.ts) and puts its worker in the list of background workers.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { AuditRow } from '../audit/chain.js';
import { BatchPacer, type KeyRateLimiter } from '../access/rate-limit.js';
import type { ApprovalGuard } from '../access/approvals.js';
import type { Pricing } from '../ledger/pricing.js';
import type { OperationRoutes } from '../operations/route.js';
import { BatchEngine } from './engine.js';
import { BatchStore } from './store.js';
import { BatchWorker } from './worker.js';
import type { SubmitDeps } from './submit.js';

export interface BatchesDeps {
  db: Db;
  config: Pick<Config, 'batches'>;
  operations: OperationRoutes;
  audit: { write(row: AuditRow): Promise<unknown> };
  rateLimiter: KeyRateLimiter;
  pricing: Pricing;
  approvals: ApprovalGuard;
  /** The live partners, when configured: each one's own batch pace (PartnerRouter.batchPace). */
  partners: { batchPace(operation: string): { partner: string; perSec: number } | null } | null;
}

export class Batches {
  readonly store: BatchStore;
  readonly worker: BatchWorker;
  readonly submit: SubmitDeps;

  constructor(deps: BatchesDeps, log: FastifyBaseLogger) {
    const { batches: opts } = deps.config;
    this.store = new BatchStore(deps.db);
    const engine = new BatchEngine({
      store: this.store,
      routes: deps.operations,
      audit: deps.audit,
      pacer: new BatchPacer(deps.rateLimiter, { perSec: opts.livePerSec, burst: opts.livePerSec }, (op) => deps.partners?.batchPace(op) ?? null),
      rowsInFlight: opts.rowsInFlight,
      leaseS: opts.leaseS,
      recheckS: opts.pollMs / 1000,
      log,
    });
    this.worker = new BatchWorker(this.store, engine, opts, log);
    this.submit = { store: this.store, routes: deps.operations, pricing: deps.pricing, approvals: deps.approvals };
  }
}
