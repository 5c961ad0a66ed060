// Owns the wiring of the domain services one server process uses; built once at boot by app.ts.
import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Store } from './db/client.js';
import { Authenticator } from './http/auth.js';
import { IdempotencyStore } from './idempotency/store.js';
import { loadSecret, UrlSigner } from './http/signed-url.js';
import { AuditWriter } from './audit/writer.js';
import { TransactionStore } from './transactions/store.js';
import { Recorder } from './operations/recorder.js';
import { LiveRunner, type LiveAnswer, type LiveOutcome } from './operations/live-runner.js';
import { SandboxRunner } from './operations/sandbox-runner.js';
import type { OperationRoutes } from './operations/route.js';
import type { GroupCommit } from './db/group-commit.js';
import { Finalizer } from './transactions/finalizer.js';
import { PartnerRouter } from './providers/router.js';
import { PartnerSessionStore } from './providers/sessions.js';
import { Settlement } from './settlement/settlement.js';
import { PendingNotes } from './transactions/notes.js';
import { Sealer } from './db/sealed.js';
import { RechargePreflight } from './catalog/preflight.js';
import { OPERATIONS, OPERATION_SLUGS, operationBySlug } from './operations/registry.js';
import { Metrics } from './metrics.js';
import { Pricing } from './ledger/pricing.js';
import { AllowlistGuard } from './access/allowlist.js';
import { ApprovalGuard } from './access/approvals.js';
import { ActionLimit, AuthFailureThrottle, KeyRateLimiter, MemoryBucketStore } from './access/rate-limit.js';
import { RedisBucketStore } from './access/redis-bucket.js';
import { ClusterBucketStore } from './access/cluster-bucket.js';
import { Expectations } from './attention/expectations.js';
import { NameMatchSettingsReader, readNameMatchSettings } from './accounts/name-match-settings.js';
import { ConsentGate } from './consents/gate.js';
import { loadReceiptKey } from './consents/receipt.js';
import { SubjectHasher, type ConsentDeps } from './consents/store.js';
import type { EndDeps } from './consents/withdrawal.js';

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
  /** Reads of the public receipt key (no API key) per client IP. */
  publicKeyReads: ActionLimit;
  /** The console's "Send test event": per endpoint, and per account across its endpoints. */
  testEvents: { perEndpoint: ActionLimit; perAccount: ActionLimit };
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
  /** The operations' runners (sandbox and live) and what their handlers may read. */
  operations: OperationRoutes;
  /** Consent records: writing them (with receipts) and ending them (withdrawal, expiry). */
  consents: { records: ConsentDeps; end: EndDeps };
  /** Releases what the services hold outside the store (Redis). */
  close(): Promise<void>;
}

/** The operations' two runners and what their handlers may read, from the services they run on. */
function operationRoutes(
  config: Config,
  s: Pick<Services, 'db' | 'recorder' | 'idempotency' | 'transactions' | 'settlement' | 'pricing' | 'partners' | 'finalizer' | 'urls' | 'preflight' | 'metrics'> & { notes: PendingNotes },
): OperationRoutes & { live: LiveRunner } {
  const { db, recorder, idempotency, transactions, partners } = s;
  return {
    consents: new ConsentGate(db, config.authCacheMs),
    sandbox: new SandboxRunner({ recorder, idempotency, transactions, finalizer: s.finalizer, pendingMs: config.sandboxPendingMs }),
    live: new LiveRunner({
      db,
      recorder,
      idempotency,
      transactions,
      settlement: s.settlement,
      pricing: s.pricing,
      partners,
      notes: s.notes,
      firstCheckS: config.reconcile.scheduleS[0]!,
      scheduleExplicit: config.reconcile.explicit,
    }),
    deps: {
      db,
      transactions,
      urls: s.urls,
      preflight: s.preflight,
      documents: partners,
      nameMatch: new NameMatchSettingsReader(db, config.authCacheMs),
      metrics: s.metrics,
      publicUrl: config.publicUrl,
      doclockerSessionTtlS: config.doclockerSessionTtlS,
      xmlUrlTtlS: config.xmlUrlTtlS,
    },
  };
}

/**
 * The one place a pending live transaction becomes final, with each operation's money rule, what it
 * adds to a late end from its note (the name match: the account's settings read in the settling
 * transaction, never beside it) and each partner's reversal-watch schedule.
 */
function settlementOf(
  config: Config,
  s: Pick<Services, 'db' | 'transactions' | 'idempotency' | 'partners'>,
  notes: PendingNotes,
  deps: () => OperationRoutes['deps'],
): Settlement {
  const { partners } = s;
  return new Settlement(
    s.db,
    s.transactions,
    s.idempotency,
    (slug) => {
      const def = operationBySlug.get(slug);
      const later = def?.later;
      return {
        charge: def?.charge ?? 'success',
        strip: def?.unstored?.strip,
        finish:
          later && ((trx, final, note, accountId) => later.finish(final, note, { deps: { ...deps(), nameMatch: { get: (id) => readNameMatchSettings(trx, id) } }, accountId })),
      };
    },
    (partner, slug) => (partner && partners ? partners.reversalWatch(partner, slug, config.reversalWatchS) : null),
    notes,
  );
}

/** Failed console sign-ins allowed per address and email a minute. */
const CONSOLE_SIGN_INS_PER_MIN = 10;
/** Reads of the receipt key without an API key, per client IP (a verifier caches it; docs/CONSENT.md). */
const PUBLIC_KEY_READS = { burst: 30, perMinute: 30 };
/** Console test events (each one an outbound signed delivery): per endpoint, and per account. */
const TEST_EVENTS_PER_ENDPOINT = { burst: 5, perMinute: 6 };
const TEST_EVENTS_PER_ACCOUNT = { burst: 20, perMinute: 30 };

export async function buildServices(config: Config, store: Store, log: FastifyBaseLogger): Promise<Services> {
  const db = store.db;
  const transactions = new TransactionStore(db);
  const idempotency = new IdempotencyStore(db, config.idempotencyLockMs);
  // One store for every bucket; in cluster mode without Redis, the primary's (server.ts serves it).
  const buckets = config.redisUrl ? new RedisBucketStore(config.redisUrl) : cluster.isWorker ? new ClusterBucketStore() : new MemoryBucketStore();
  log.info({ buckets: config.redisUrl ? 'redis' : cluster.isWorker ? 'cluster primary' : 'this process' }, 'rate-limit buckets');
  const metrics = new Metrics(db);
  const partnerSessions = new PartnerSessionStore(db, await loadSecret(db, 'partner_sessions'));
  const partners = config.partner.endpoints.length ? new PartnerRouter(config.partner, config.publicUrl, partnerSessions, metrics, OPERATION_SLUGS) : null;
  const notes = new PendingNotes(new Sealer(await loadSecret(db, 'pending_notes'), 'pending notes'));
  // The operations' deps are built after settlement (their runners need it): read when a settlement runs.
  const settlement = settlementOf(config, { db, transactions, idempotency, partners }, notes, () => operations.deps);
  const recorder = new Recorder(db, transactions, idempotency);
  const finalizer = new Finalizer(transactions, config.finalizerPollMs, log);
  const pricing = new Pricing(db, config.authCacheMs, new Map(OPERATIONS.map((o) => [o.slug, o.feePaise])));
  const urls = new UrlSigner(await loadSecret(db, 'url_signing'), config.publicUrl);
  const preflight = new RechargePreflight(partners, config.preflightTtl);
  const operations = operationRoutes(config, { db, recorder, idempotency, transactions, settlement, pricing, partners, finalizer, urls, preflight, metrics, notes });
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
    publicKeyReads: new ActionLimit('jwks', PUBLIC_KEY_READS, buckets, log, 'Too many reads of the public key from this address (it changes rarely: cache it, Cache-Control says how long)'),
    testEvents: {
      perEndpoint: new ActionLimit('webhook-test', TEST_EVENTS_PER_ENDPOINT, buckets, log, 'Too many test events to this endpoint'),
      perAccount: new ActionLimit('webhook-test-account', TEST_EVENTS_PER_ACCOUNT, buckets, log, "Too many test events from this account's endpoints"),
    },
    audit: new AuditWriter(db),
    idempotency,
    transactions,
    recorder,
    outcomes: operations.live.outcomes,
    finalizer,
    urls,
    pricing,
    operations,
    partners,
    partnerSessions,
    settlement,
    preflight,
    metrics,
    expectations: new Expectations(config.attention.expectedFinalS, partners),
    consents: {
      records: { db, hasher: new SubjectHasher(await loadSecret(db, 'consent_subject')), receiptKey: await loadReceiptKey(db), issuer: config.publicUrl },
      end: { db, transactions, partners },
    },
    async close() {
      if (buckets instanceof RedisBucketStore) await buckets.close();
      await partners?.close();
    },
  };
}
