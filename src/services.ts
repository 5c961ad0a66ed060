// Owns the wiring of the domain services one server process uses; built once at boot by app.ts.
import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Store } from './db/client.js';
import type { Environment } from './db/schema.js';
import { Authenticator } from './http/auth.js';
import { IdempotencyStore } from './http/idempotency.js';
import { loadSecret, UrlSigner } from './http/signed-url.js';
import { AuditWriter } from './audit/writer.js';
import { TransactionStore } from './transactions/store.js';
import { Recorder } from './operations/recorder.js';
import { liveOutcomes, type LiveAnswer, type LiveOutcome } from './operations/live.js';
import type { GroupCommit } from './db/group-commit.js';
import { Finalizer } from './transactions/finalizer.js';
import { SandboxConnector } from './providers/sandbox/index.js';
import type { OperationRequest, Outcome } from './providers/connector.js';
import { PartnerRouter } from './providers/router.js';
import { PartnerSessionStore } from './providers/sessions.js';
import { Settlement } from './settlement/settlement.js';
import { RechargePreflight } from './catalog/preflight.js';
import { operationBySlug } from './operations/registry.js';
import { Metrics } from './metrics.js';
import { Pricing } from './ledger/pricing.js';
import { ApiError } from './errors.js';
import { AllowlistGuard } from './access/allowlist.js';
import { ApprovalGuard } from './access/approvals.js';
import { AuthFailureThrottle, KeyRateLimiter, MemoryBucketStore } from './access/rate-limit.js';
import { RedisBucketStore } from './access/redis-bucket.js';
import { ClusterBucketStore } from './access/cluster-bucket.js';
import { Expectations } from './attention/expectations.js';

export interface Services {
  config: Config;
  store: Store;
  db: Store['db'];
  auth: Authenticator;
  allowlist: AllowlistGuard;
  approvals: ApprovalGuard;
  rateLimiter: KeyRateLimiter;
  authThrottle: AuthFailureThrottle;
  /** Failed console sign-ins per address and email. */
  signInThrottle: AuthFailureThrottle;
  audit: AuditWriter;
  idempotency: IdempotencyStore;
  transactions: TransactionStore;
  /** Group commit of operation records: sandbox results, live recovery points. */
  recorder: Recorder;
  /** Group commit of live outcomes (phase 3) with their audit rows. */
  outcomes: GroupCommit<LiveOutcome, LiveAnswer>;
  finalizer: Finalizer;
  urls: UrlSigner;
  pricing: Pricing;
  /** Live partner routing, when partner endpoints are configured. */
  partners: PartnerRouter | null;
  metrics: Metrics;
  /** The one place a pending live transaction becomes final (route, callbacks, reconciler). */
  settlement: Settlement;
  /** Recharge pre-flight: operator lookup and plans, sandbox or live (cached). */
  preflight: RechargePreflight;
  /** Partner state kept between calls (OAuth sessions), encrypted. */
  partnerSessions: PartnerSessionStore;
  /** How long a live pending may take with each partner before it is overdue (src/attention/). */
  expectations: Expectations;
  /** Where an operation runs in this environment: the sandbox, or the live partners' router. */
  connector(environment: Environment, operation: string): { execute(req: OperationRequest): Promise<Outcome> };
  /** Releases what the services hold outside the store (Redis). */
  close(): Promise<void>;
}

/** Failed console sign-ins allowed per address and email a minute. */
const CONSOLE_SIGN_INS_PER_MIN = 10;

export async function buildServices(config: Config, store: Store, log: FastifyBaseLogger): Promise<Services> {
  const db = store.db;
  const transactions = new TransactionStore(db);
  const idempotency = new IdempotencyStore(db, config.idempotencyLockMs);
  const sandbox = new SandboxConnector(config.sandboxPendingMs);
  // One store for every bucket; in cluster mode without Redis, the primary's (server.ts serves it).
  const buckets = config.redisUrl ? new RedisBucketStore(config.redisUrl) : cluster.isWorker ? new ClusterBucketStore() : new MemoryBucketStore();
  log.info({ buckets: config.redisUrl ? 'redis' : cluster.isWorker ? 'cluster primary' : 'this process' }, 'rate-limit buckets');
  const metrics = new Metrics(db);
  const partnerSessions = new PartnerSessionStore(db, await loadSecret(db, 'partner_sessions'));
  const partners = config.partner.endpoints.length ? new PartnerRouter(config.partner, config.publicUrl, partnerSessions, metrics) : null;
  const settlement = new Settlement(
    db,
    transactions,
    idempotency,
    (slug) => {
      const def = operationBySlug.get(slug);
      return { charge: def?.charge ?? 'success', strip: def?.unstored?.strip };
    },
    (partner, slug) => (partner && partners ? partners.reversalWatch(partner, slug, config.reversalWatchS) : null),
  );
  return {
    config,
    store,
    db,
    auth: new Authenticator(db, config.authCacheMs),
    allowlist: new AllowlistGuard(db, config.authCacheMs),
    approvals: new ApprovalGuard(db, config.authCacheMs),
    rateLimiter: new KeyRateLimiter(db, config.rateLimit, config.authCacheMs, buckets, log),
    authThrottle: new AuthFailureThrottle('auth', config.authFailuresPerMin, buckets, log),
    signInThrottle: new AuthFailureThrottle('console', CONSOLE_SIGN_INS_PER_MIN, buckets, log),
    audit: new AuditWriter(db),
    idempotency,
    transactions,
    recorder: new Recorder(db, transactions, idempotency),
    outcomes: liveOutcomes(db),
    finalizer: new Finalizer(transactions, config.finalizerPollMs, log),
    urls: new UrlSigner(await loadSecret(db, 'url_signing'), config.publicUrl),
    pricing: new Pricing(db, config.authCacheMs),
    partners,
    partnerSessions,
    settlement,
    preflight: new RechargePreflight(partners, config.preflightTtl),
    metrics,
    expectations: new Expectations(config.attention.expectedFinalS, partners),
    async close() {
      if (buckets instanceof RedisBucketStore) await buckets.close();
      await partners?.close();
    },
    connector(environment, operation) {
      if (environment === 'sandbox') return sandbox;
      if (partners) return partners;
      throw new ApiError('partner_failed', `No live partner network is configured on this server for ${operation}; nothing was executed or debited`);
    },
  };
}
