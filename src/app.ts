// Builds the Fastify application: plugins, hooks and routes, on services wired from one Config and one
// Store. It never listens (server.ts does), so tests drive the very same app.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.js';
import type { Store } from './db/client.js';
import { buildServices, type Services } from './services.js';
import type { AuthContext } from './http/auth.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.js';
import { accessGuard } from './http/guard.js';
import { compile, compileText } from './http/validation.js';
import { inputGuard } from './http/input-guard.js';
import { registerExpectation } from './http/expectation.js';
import { registerJsonParser } from './http/json-body.js';
import { portableDocument } from './http/openapi.js';
import { randomBase62 } from './ids.js';
import { recordAnswer, registerAuditHook } from './audit/hook.js';
import { redactUrl } from './audit/redact.js';
import { OPERATIONS } from './operations/registry.js';
import { registerOperation } from './operations/route.js';
import { registerTransactionRoutes } from './transactions/routes.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerCatalogRoutes } from './catalog/routes.js';
import { registerPartnerRoutes } from './settlement/callbacks.js';
import { Reconciler } from './settlement/reconciler.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import { registerAuditRoutes } from './audit/routes.js';
import { Checkpointer, purgeAudit } from './audit/checkpoints.js';
import { cutoffs } from './audit/retention.js';
import { registerConsoleApi } from './console/routes/index.js';
import { registerConsolePages } from './console/pages.js';
import { WebhookWorker } from './webhooks/worker.js';
import { workersHealth } from './cluster/health.js';
import { OverdueWatch } from './attention/overdue.js';
import { Batches } from './batches/index.js';
import { registerBatchRoutes } from './batches/routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
  interface FastifyContextConfig {
    operation?: string;
    /** Every body field is optional: an empty or missing body is an empty object (json-body.ts). */
    bodyOptional?: boolean;
  }
}

const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface App {
  app: FastifyInstance;
  services: Services;
  reconciler: Reconciler;
  webhooks: WebhookWorker;
  overdue: OverdueWatch;
}

/** `logStream`: where the log lines go (stdout by default; tests capture them). */
export async function buildApp(config: Config, store: Store, opts: { logStream?: NodeJS.WritableStream } = {}): Promise<App> {
  // Router errors are audited by the error handler itself; the writer exists once services do, which
  // is before the app is ready to take any request.
  let audit: Services['audit'] | undefined;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
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
    frameworkErrors: frameworkErrors(async (req, reply, status, payload) => {
      if (audit) await recordAnswer(audit, req, reply, status, payload);
    }),
    clientErrorHandler,
    // The client IP is the socket peer unless a trusted proxy is configured; then X-Forwarded-For is
    // read from the right, skipping only the trusted hops (proxy-addr), so a client cannot spoof it.
    trustProxy: config.trustProxy ?? false,
  });
  const services = await buildServices(config, store, app.log);
  audit = services.audit;

  // Only JSON is spoken on /api/v1; Fastify's built-in text/plain parser would accept other bodies.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? compile(schema) : compileText(schema)));
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  registerExpectation(app);
  app.addHook('preHandler', inputGuard);
  registerErrorHandling(app);
  registerAuditHook(app, services.audit);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sangam API',
        version: '1.0.0',
        description:
          'Verification, payment and recharge operations behind one contract. Every response is the envelope ' +
          '{ statuscode, ok, message, data }. Authenticate with "Authorization: Bearer sk_test_…" (sandbox) or sk_live_… (live).',
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_… API key' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // The portable document (http/openapi.ts), derived once: the routes cannot change after ready.
  let openapi: object | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async () => (openapi ??= portableDocument(app.swagger())));
  // Not in the OpenAPI document (an operator's route, like /metrics). `workers`: cluster/health.ts.
  app.get('/health', { schema: { hide: true } }, async () => ({ ok: true, store: store.kind, partners: services.partners?.health() ?? {}, workers: workersHealth() }));
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    await services.metrics.collectPending();
    return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });

  const batches = new Batches(services, app.log);
  // Everything a key can call: authenticated in onRequest, before the body is read.
  await app.register(async (api) => {
    api.addHook('onRequest', accessGuard(services));
    for (const def of OPERATIONS) registerOperation(api, def, services.operations);
    registerTransactionRoutes(api, services);
    registerAccountRoutes(api, services);
    registerCatalogRoutes(api, services);
    registerWebhookRoutes(api, services);
    registerAuditRoutes(api, services);
    await api.register(async (scope) => registerBatchRoutes(scope, batches)); // its own scope: it reads CSV and NDJSON
  });

  // An operation's side routes (a consent page, a signed document), each in its own plugin scope.
  for (const def of OPERATIONS) if (def.routes) await app.register(async (scope) => def.routes!(scope, services.operations.deps));
  registerPartnerRoutes(app, services);
  registerConsoleApi(app, services);
  await registerConsolePages(app);

  // Housekeeping: idempotency keys past their retention are deleted hourly, audit rows past theirs
  // nightly (02:00 UTC); key usage is batched.
  let purge: NodeJS.Timeout | undefined;
  let lastUsed: NodeJS.Timeout | undefined;
  const reconciler = new Reconciler(services, app.log);
  const webhooks = new WebhookWorker(services.db, config.webhooks, app.log);
  const overdue = new OverdueWatch(services.db, services.expectations, config.attention.pollMs, app.log);
  overdue.registerMetric(services.metrics.registry);
  const checkpointer = new Checkpointer(services.db, config.auditCheckpoint.signingKey, config.auditCheckpoint.everyS, app.log);
  app.addHook('onReady', async () => {
    checkpointer.start();
    services.finalizer.start();
    reconciler.start();
    webhooks.start();
    overdue.start();
    batches.start();
    const retentionMs = config.idempotencyRetentionH * 3_600_000;
    purge = setInterval(() => {
      services.idempotency.purge(retentionMs).catch((err: unknown) => app.log.error({ err }, 'idempotency purge failed'));
      if (new Date().getUTCHours() === 2) {
        purgeAudit(services.db, cutoffs(config.auditRetention), config.auditCheckpoint.signingKey).catch((err: unknown) => app.log.error({ err }, 'audit purge failed'));
      }
    }, 3_600_000).unref();
    lastUsed = setInterval(() => {
      services.auth.flushLastUsed().catch((err: unknown) => app.log.error({ err }, 'last_used_at flush failed'));
    }, config.lastUsedFlushMs).unref();
  });
  // The background workers stop as soon as shutdown begins, not once the last connection has drained
  // (a keep-alive connection can hold close() for its whole timeout): a closing server asks no partner
  // anything more and delivers nothing more.
  app.addHook('preClose', async () => {
    clearInterval(purge);
    clearInterval(lastUsed);
    await services.finalizer.stop();
    await reconciler.stop();
    await webhooks.stop();
    await overdue.stop();
    await batches.stop();
    await checkpointer.stop();
  });
  app.addHook('onClose', async () => {
    await services.auth.flushLastUsed();
    await services.recorder.flush();
    await services.outcomes.flush();
    await services.audit.flush();
    await services.close();
  });
  return { app, services, reconciler, webhooks, overdue };
}
