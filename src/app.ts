// Builds the Fastify application: plugins, hooks and routes (every route: routes/index.ts), on services
// wired from one Config and one Store, and the one list of background workers it starts when ready and
// stops when shutdown begins. It never listens (server.ts does), so tests drive the very same app.
import { registerServerTiming } from './http/server-timing.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Store } from './db/client.js';
import { buildServices, type Services } from './services.js';
import type { AuthContext } from './http/auth.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling, type RecordAnswer } from './http/error-handler.js';
import { compile, compileText, lazySerializer } from './http/validation.js';
import { inputGuard } from './http/input-guard.js';
import { registerExpectation } from './http/expectation.js';
import { registerJsonParser } from './http/json-body.js';
import { randomBase62 } from './ids.js';
import { recordAnswer, registerAuditHook } from './audit/hook.js';
import { redactUrl } from './audit/redact.js';
import { Reconciler } from './settlement/reconciler.js';
import { Checkpointer, nightlyRetention } from './audit/checkpoints.js';
import { WebhookWorker } from './webhooks/worker.js';
import { OverdueWatch } from './attention/overdue.js';
import { FloatCheck } from './float/check.js';
import { periodic, startAll, stopAll, type BackgroundWorker } from './polling-loop.js';
import { sweepBatchIdentity } from './batches/retention.js';
import { ConsentExpiry } from './consents/expiry.js';
import { Batches } from './batches/index.js';
import { registerRoutes } from './routes/index.js';
import { registerTracing } from './http/tracing.js';
import { startTracing } from './tracing/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
  interface FastifyContextConfig {
    operation?: string;
    /** Every body field is optional: an empty or missing body is an empty object (json-body.ts). */
    bodyOptional?: boolean;
    /** The Content-Types the route takes, when not only application/json: a 415 names them. */
    mediaTypes?: string[];
  }
}

const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface App {
  app: FastifyInstance;
  services: Services;
  reconciler: Reconciler;
  webhooks: WebhookWorker;
  overdue: OverdueWatch;
  /** The prepaid partners' float check (src/float/). */
  float: FloatCheck;
  /** Every background worker, in the order they start and stop. */
  workers: BackgroundWorker[];
}

/** The Fastify instance with its options; `onRouterError` audits what the router answers by itself. */
function createFastify(config: Config, logStream: NodeJS.WritableStream | undefined, onRouterError: RecordAnswer): FastifyInstance {
  return Fastify({
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      // URLs are logged with identity numbers masked, as the audit store keeps them.
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      },
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    requestTimeout: config.requestTimeoutMs,
    genReqId: () => `req_${randomBase62(20)}`,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrors(onRouterError),
    clientErrorHandler,
    // The client IP is the socket peer unless a trusted proxy is configured; then X-Forwarded-For is
    // read from the right, skipping only the trusted hops (proxy-addr), so a client cannot spoof it.
    trustProxy: config.trustProxy ?? false,
  });
}

/** What every request goes through: its span (traces on), body parsing, validation, the request id, errors, the audit hook. */
function registerPipeline(app: FastifyInstance, services: Services, traced: boolean): void {
  if (traced) registerTracing(app);
  // Only JSON is spoken on /api/v1; Fastify's built-in text/plain parser would accept other bodies.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? compile(schema) : compileText(schema)));
  app.setSerializerCompiler(lazySerializer);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  registerServerTiming(app, services.metrics);
  registerExpectation(app);
  app.addHook('preHandler', inputGuard);
  registerErrorHandling(app);
  registerAuditHook(app, services.audit);
}

/**
 * The background workers, in the order they stop: housekeeping first (idempotency keys past their
 * retention hourly, audit rows past theirs nightly, identity content of final batch rows, key usage batched), then the workers that settle,
 * ask partners and deliver, audit checkpoints last.
 */
function backgroundWorkers(config: Config, services: Services, batches: Batches, log: FastifyBaseLogger) {
  const retentionMs = config.idempotencyRetentionH * 3_600_000;
  const reconciler = new Reconciler(services, log);
  const webhooks = new WebhookWorker(services.db, config.webhooks, log);
  const overdue = new OverdueWatch(services.db, services.expectations, config.attention.pollMs, log);
  overdue.registerMetric(services.metrics.registry);
  const { float: f } = config;
  const float = new FloatCheck({ db: services.db, floats: () => services.partners?.floats() ?? [], confirmChecks: f.confirmChecks, windowS: f.windowS }, f.checkMs, log);
  const workers: BackgroundWorker[] = [
    periodic('idempotency purge', 3_600_000, () => services.idempotency.purge(retentionMs), log),
    nightlyRetention(services.db, config.auditRetention, config.auditCheckpoint.signingKey, log),
    periodic('batch identity retention', config.batches.identitySweepMs, () => sweepBatchIdentity(services.db, config.auditRetention.identity), log),
    periodic('last_used_at flush', config.lastUsedFlushMs, () => services.auth.flushLastUsed(), log),
    services.finalizer,
    reconciler,
    webhooks,
    overdue,
    float,
    batches.worker,
    new Checkpointer(services.db, config.auditCheckpoint.signingKey, config.auditCheckpoint.everyS, log),
    new ConsentExpiry(services.consents.end, config.finalizerPollMs, log),
  ];
  return { reconciler, webhooks, overdue, float, workers };
}

/** `logStream`: where the log lines go (stdout by default; tests capture them). */
export async function buildApp(config: Config, store: Store, opts: { logStream?: NodeJS.WritableStream } = {}): Promise<App> {
  // Traces (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set) start before anything that makes a span.
  const stopTracing = await startTracing(config.traces);
  // Router errors are audited by the error handler itself; the writer exists once services do, which
  // is before the app is ready to take any request.
  let audit: Services['audit'] | undefined;
  const app = createFastify(config, opts.logStream, async (req, reply, status, payload) => {
    if (audit) await recordAnswer(audit, req, reply, status, payload);
  });
  const services = await buildServices(config, store, app.log);
  audit = services.audit;
  registerPipeline(app, services, config.traces !== null);
  const batches = new Batches(services, app.log);
  await registerRoutes(app, config, store, services, batches);

  const background = backgroundWorkers(config, services, batches, app.log);
  app.addHook('onReady', async () => startAll(background.workers));
  // The background workers stop as soon as shutdown begins, not once the last connection has drained
  // (a keep-alive connection can hold close() for its whole timeout): a closing server asks no partner
  // anything more and delivers nothing more.
  app.addHook('preClose', () => stopAll(background.workers, app.log));
  app.addHook('onClose', async () => {
    await services.auth.flushLastUsed();
    await services.recorder.flush();
    await services.outcomes.flush();
    await services.audit.flush();
    await services.close();
    await stopTracing(); // the spans still queued are sent
  });
  return { app, services, ...background };
}
