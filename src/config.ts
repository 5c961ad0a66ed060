// Owns every setting of the service. The environment is read here, once, validated against one
// TypeBox schema, and turned into a typed Config; nothing else in the code reads process.env.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import path from 'node:path';
import { availableParallelism } from 'node:os';

const Int = (def: number, min: number, max: number, description: string) =>
  Type.Integer({ default: def, minimum: min, maximum: max, description });

export const EnvSchema = Type.Object({
  PORT: Int(8080, 0, 65535, 'TCP port the API listens on'),
  HOST: Type.String({ default: '0.0.0.0', description: 'Interface the API listens on' }),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL server; unset = embedded store' }),
  ),
  SANGAM_DATA_DIR: Type.String({ default: './data', description: 'Embedded store and admin socket directory' }),
  SANGAM_PUBLIC_URL: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'Base URL partners call back and Xml_Url points to' }),
  ),
  SANGAM_DB_POOL_MAX: Int(10, 1, 200, 'PostgreSQL pool size'),
  SANGAM_WORKERS: Type.String({ pattern: '^(auto|[1-9][0-9]?)$', default: '1', description: 'Server processes on one port (node:cluster), on PostgreSQL; auto = the number of cores' }),
  SANGAM_WORKER_BACKOFF_MS: Int(1000, 1, 600_000, 'Cluster: first wait before restarting a worker slot whose worker died again soon after it started (doubles each time)'),
  SANGAM_WORKER_BACKOFF_MAX_MS: Int(30_000, 1, 3_600_000, 'Cluster: longest wait before restarting a worker slot'),
  SANGAM_SANDBOX_PENDING_MS: Int(5000, 0, 3_600_000, 'How long a sandbox pending lasts'),
  SANGAM_FINALIZER_POLL_MS: Int(1000, 10, 60_000, 'How often the pending finalizer scans the store'),
  SANGAM_AUTH_CACHE_MS: Int(500, 0, 1000, 'How long a key lookup is cached in process (revocation latency)'),
  SANGAM_DOCLOCKER_SESSION_TTL_S: Int(600, 10, 86_400, 'Lifetime of a document-locker client id'),
  SANGAM_XML_URL_TTL_S: Int(900, 10, 86_400, 'Lifetime of a signed Xml_Url'),
  SANGAM_OPERATOR_LOOKUP_TTL_S: Int(86_400, 0, 30 * 86_400, 'How long a live operator lookup is cached per mobile (lookups cost money at the partner)'),
  SANGAM_PLANS_TTL_S: Int(21_600, 0, 7 * 86_400, 'How long a live plan list is cached per operator and circle'),
  SANGAM_DTH_INFO_TTL_S: Int(300, 0, 86_400, 'How long a live DTH subscriber info is cached per operator and subscriber (short: the balance moves)'),
  SANGAM_IDEMPOTENCY_LOCK_MS: Int(60_000, 100, 3_600_000, 'How long a request holds its idempotency key before a retry may take it over (a crashed holder)'),
  SANGAM_AUDIT_RETENTION_DAYS: Int(1825, 1, 3650, 'Audit metadata: rows older than this are deleted nightly (a checkpoint keeps each chain verifiable)'),
  SANGAM_AUDIT_RETAIN_BODIES_DAYS: Int(180, 1, 3650, 'Audit content (client IP, redacted bodies) of non-identity rows is erased after this; the hash commitment stays'),
  SANGAM_AUDIT_RETAIN_IDENTITY_DAYS: Int(30, 1, 3650, 'Audit content of identity operations (signature match, document locker, bank account) is erased after this'),
  SANGAM_AUDIT_SIGNING_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'Ed25519 private key (PEM, or base64 PKCS#8 DER) that signs audit checkpoints; unset = one generated into the store at first boot' }),
  ),
  SANGAM_AUDIT_CHECKPOINT_S: Int(60, 1, 86_400, 'How often a signed checkpoint over every audit chain head is written'),
  SANGAM_IDEMPOTENCY_RETENTION_H: Int(24, 24, 24 * 90, 'How long idempotency keys are kept (at least 24 h)'),
  SANGAM_RATE_LIMIT_PER_SEC: Int(50, 1, 1_000_000, 'Default sustained requests a second per API key'),
  SANGAM_RATE_LIMIT_BURST: Int(100, 1, 10_000_000, 'Default burst size (token bucket capacity) per API key'),
  SANGAM_AUTH_FAILURES_PER_MIN: Int(20, 1, 100_000, 'Failed authentications allowed per client IP per minute'),
  SANGAM_TRUST_PROXY: Type.Optional(
    Type.String({ pattern: '^[0-9a-fA-F:.,/ a-z]+$', description: 'Proxies whose X-Forwarded-For is trusted: addresses, CIDRs, or loopback/linklocal/uniquelocal' }),
  ),
  SANGAM_REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'Redis for rate-limit buckets shared by every server process' })),
  SANGAM_PARTNER_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'Partner network for live calls (the simulator locally)' })),
  SANGAM_PARTNER_SECRET: Type.Optional(
    Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{16,}$', description: 'whsec_ secret partner callbacks are signed with' }),
  ),
  SANGAM_PARTNER_TIMEOUT_MS: Int(10_000, 10, 120_000, 'Deadline for a partner answer (shorter than SANGAM_REQUEST_TIMEOUT_MS)'),
  SANGAM_PARTNERS: Type.Optional(Type.String({ description: 'More partner endpoints: name=url,name=url (SANGAM_PARTNER_URL is "primary")' })),
  SANGAM_PARTNER_ROUTES: Type.Optional(Type.String({ description: 'Per-operation partner order: slug=a>b;slug=b (default: every partner, in order)' })),
  SANGAM_PARTNER_TIMEOUTS: Type.Optional(Type.String({ description: 'Per partner and operation deadlines: partner/slug=ms, * for any' })),
  SANGAM_BREAKER_ERROR_PCT: Int(50, 1, 100, 'Partner failure percentage that opens its circuit breaker'),
  SANGAM_BREAKER_MIN_CALLS: Int(5, 1, 10_000, 'Calls in the window before the breaker may open'),
  SANGAM_BREAKER_RESET_MS: Int(10_000, 10, 3_600_000, 'How long an open breaker waits before a trial call'),
  SANGAM_RECONCILE_SCHEDULE: Type.String({ default: '90,90,180,300,600,1800,3600', pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$', description: 'Seconds between status enquiries of a live pending (the last repeats)' }),
  SANGAM_RECONCILE_CUTOFF_S: Int(86_400, 1, 30 * 86_400, 'After this long without a final status, a pending goes to manual review'),
  SANGAM_RECONCILE_POLL_MS: Int(1000, 10, 60_000, 'How often the reconciler looks for due enquiries'),
  SANGAM_RECONCILE_LEASE_S: Int(60, 1, 3600, 'How long a process holds a due enquiry it took: one held by a process that died is taken again after this'),
  SANGAM_REVERSAL_WATCH_SCHEDULE: Type.Optional(
    Type.String({
      pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$',
      description: "Seconds after a live success at which its partner is asked again whether it was reversed (overrides every partner's documented schedule)",
    }),
  ),
  SANGAM_EXPECTED_FINAL_S: Type.Optional(Type.String({ description: 'Seconds a live pending may take to become final before it is overdue, per partner: name=seconds,… (* for every partner not named, and for pendings no partner holds)' })),
  SANGAM_OVERDUE_POLL_MS: Int(30_000, 10, 3_600_000, 'How often the overdue watch looks for pendings past their expectation'),
  SANGAM_FLOAT_CHECK_MS: Int(300_000, 10, 86_400_000, "How often each prepaid partner's float balance is compared with Sangam's books (docs/RELIABILITY.md, Float reconciliation)"),
  SANGAM_FLOAT_CONFIRM_CHECKS: Int(2, 1, 1000, 'Conclusive float checks in a row that must find the same drift before it goes to Needs attention'),
  SANGAM_FLOAT_WINDOW_S: Type.Optional(Type.String({ pattern: '^\\d+$', description: "Seconds after a success inside which a drift's candidates are looked for (overrides every partner's reversal window)" })),
  SANGAM_WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '0,5,300,1800,7200,18000,36000,36000',
    pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$',
    description: 'Seconds before each delivery attempt (the first counts from the event)',
  }),
  SANGAM_WEBHOOK_ALLOW_PRIVATE: Type.Union([Type.Literal('0'), Type.Literal('1')], { default: '0', description: '1 = webhooks may go to loopback and private addresses' }),
  SANGAM_WEBHOOK_CA_FILE: Type.Optional(Type.String({ minLength: 1, description: 'PEM file of extra CA certificates trusted for https webhook receivers (an internal CA), beside the public roots' })),
  SANGAM_WEBHOOK_TIMEOUT_MS: Int(15_000, 100, 120_000, 'Timeout of one delivery attempt'),
  SANGAM_WEBHOOK_DISABLE_AFTER_DAYS: Int(5, 1, 90, 'An endpoint failing this long is disabled'),
  SANGAM_WEBHOOK_POLL_MS: Int(500, 10, 60_000, 'How often the delivery worker looks for due attempts'),
  SANGAM_BATCH_POLL_MS: Int(500, 10, 60_000, 'How often the batch worker looks for batches to run (and re-reads rows still pending)'),
  SANGAM_BATCH_IDENTITY_SWEEP_MS: Int(60_000, 10, 3_600_000, "How often final batch rows of identity operations have their stored input redacted (and rows past the identity retention erased)"),
  SANGAM_BATCH_LEASE_S: Int(30, 1, 3600, 'How long a process holds a batch it runs between chunks: one held by a process that died is taken again after this'),
  SANGAM_BATCH_ROWS_IN_FLIGHT: Int(400, 1, 1000, "Rows of one batch run at once (two half-chunks): bounds what a batch puts in the group commit's queue, and so the length of the write an interactive call of the same store waits behind (10,000 rows, embedded: 100 gave 977 rows/s with an interactive call beside it at p50 36 ms, 400 gave 1,260 rows/s and 112 ms; docs/PERFORMANCE.md, batches round 7)"),
  SANGAM_BATCHES_IN_FLIGHT: Int(4, 1, 64, 'Batches one process runs at once'),
  SANGAM_BATCH_LIVE_ROWS_PER_SEC: Int(25, 1, 10_000, "Live batch rows of one operation sent to the partners a second, across every account (bursts of as many): NPCI forbids turning files into high-rate calls, and partners rate-limit. Each account's rows also keep to its own rate limit"),
  SANGAM_LAST_USED_FLUSH_MS: Int(10_000, 10, 3_600_000, 'How often key last_used_at is written'),
  SANGAM_REQUEST_TIMEOUT_MS: Int(30_000, 100, 600_000, 'Server request timeout'),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'OpenTelemetry collector that traces are sent to, OTLP over HTTP (JSON, to <endpoint>/v1/traces); unset = no tracing' }),
  ),
  OTEL_SERVICE_NAME: Type.String({ default: 'sangam', minLength: 1, description: 'service.name of the traces' }),
  OTEL_BSP_SCHEDULE_DELAY: Int(5000, 0, 600_000, 'Milliseconds between two exports of finished spans'),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});
type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  dbPoolMax: number;
  /** Server processes to run (1 on the embedded store, which has a single owner). */
  workers: number;
  /** How long the cluster primary waits before restarting a slot whose workers keep dying (cluster/supervisor.ts). */
  workerBackoff: { baseMs: number; maxMs: number };
  sandboxPendingMs: number;
  finalizerPollMs: number;
  authCacheMs: number;
  doclockerSessionTtlS: number;
  xmlUrlTtlS: number;
  preflightTtl: { lookupS: number; plansS: number; dthInfoS: number };
  requestTimeoutMs: number;
  idempotencyRetentionH: number;
  /** Audit retention by data class (audit/retention.ts): content of identity rows, other content, metadata. */
  auditRetention: { identity: number; bodies: number; metadata: number };
  /** Signed audit checkpoints: the key (unset = generated into the store) and how often. */
  auditCheckpoint: { signingKey: string | undefined; everyS: number };
  idempotencyLockMs: number;
  rateLimit: { perSec: number; burst: number };
  authFailuresPerMin: number;
  trustProxy: string | undefined;
  redisUrl: string | undefined;
  partner: {
    secret: string | undefined;
    timeoutMs: number;
    endpoints: PartnerEndpoint[];
    routes: Record<string, string[]>;
    timeouts: Record<string, number>;
    breaker: { errorPct: number; minCalls: number; resetMs: number };
  };
  /** `explicit`: SANGAM_RECONCILE_SCHEDULE was set, and then rules over the partners' own etiquette. */
  reconcile: { scheduleS: number[]; cutoffS: number; pollMs: number; leaseS: number; explicit: boolean };
  /** SANGAM_REVERSAL_WATCH_SCHEDULE, when set: replaces every partner's reversal-watch schedule. */
  reversalWatchS: number[] | null;
  /** Overdue pendings (src/attention/): expectation overrides by partner name (`*`: any), and the watch's cadence. */
  attention: { expectedFinalS: Record<string, number>; pollMs: number };
  /** Float reconciliation (src/float/): the check's cadence, the confirmations a drift needs, the candidates' window override. */
  float: { checkMs: number; confirmChecks: number; windowS: number | null };
  webhooks: { retryScheduleS: number[]; allowPrivate: boolean; caFile: string | null; timeoutMs: number; disableAfterDays: number; pollMs: number };
  /** The batch worker (src/batches/). */
  /** identitySweepMs: batches/retention.ts, the identity content of final batch rows. */
  batches: { identitySweepMs: number; pollMs: number; leaseS: number; rowsInFlight: number; batchesInFlight: number; livePerSec: number };
  lastUsedFlushMs: number;
  /** OpenTelemetry traces (src/tracing/): where they go, under which service name, how often; null = off. */
  traces: { endpoint: string; serviceName: string; exportDelayMs: number } | null;
  logLevel: Env['LOG_LEVEL'];
}

export class ConfigError extends Error {}

/**
 * One configured partner (CONTRACT §9): SANGAM_PARTNER_<NAME>_KIND and _URL, plus the variables its
 * kind needs (SANGAM_PARTNER_<NAME>_<VAR>, handed to its connector as `vars`, which checks them at
 * boot). The simulator of SANGAM_PARTNER_URL is the partner `primary` of kind `sangam`; SANGAM_PARTNERS
 * adds more of that kind.
 */
export interface PartnerEndpoint {
  name: string;
  kind: string;
  url: string;
  vars: Record<string, string>;
}

const PARTNER_KIND = /^SANGAM_PARTNER_([A-Z0-9]+)_KIND$/;

/** The SANGAM_PARTNER_<NAME>_* partners of `env`, by name. */
function declaredPartners(env: Record<string, string | undefined>): PartnerEndpoint[] {
  const out: PartnerEndpoint[] = [];
  for (const [key, kind] of Object.entries(env)) {
    const m = PARTNER_KIND.exec(key);
    if (!m || !kind) continue;
    const NAME = m[1]!;
    const prefix = `SANGAM_PARTNER_${NAME}_`;
    const url = env[`${prefix}URL`];
    if (!url || !/^https?:\/\/\S+$/.test(url)) throw new ConfigError(`Invalid configuration:\n  ${prefix}URL: partner ${NAME.toLowerCase()} needs an http(s) base URL`);
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) {
      if (k.startsWith(prefix) && v !== undefined && k !== `${prefix}KIND` && k !== `${prefix}URL`) vars[k.slice(prefix.length)] = v;
    }
    out.push({ name: NAME.toLowerCase(), kind: kind.trim().toLowerCase(), url: url.replace(/\/+$/, ''), vars });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** "k=v<sep>k=v" → { k: parse(v) }; empty → {}. */
function pairs<T>(text: string | undefined, sep: string, name: string, parse: (v: string) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const part of (text ?? '').split(sep).map((p) => p.trim()).filter(Boolean)) {
    const i = part.indexOf('=');
    if (i <= 0) throw new ConfigError(`Invalid configuration:\n  ${name}: "${part}" is not key=value`);
    out[part.slice(0, i).trim()] = parse(part.slice(i + 1).trim());
  }
  return out;
}

function partnerEndpoints(primary: string | undefined, more: string | undefined, secret: string | undefined, env: Record<string, string | undefined>): PartnerEndpoint[] {
  const list = Object.entries(
    pairs(more, ',', 'SANGAM_PARTNERS', (url) => {
      if (!/^https?:\/\/\S+$/.test(url)) throw new ConfigError(`Invalid configuration:\n  SANGAM_PARTNERS: ${url} is not an http(s) URL`);
      return url.replace(/\/+$/, '');
    }),
  ).map(([name, url]) => ({ name, kind: 'sangam', url, vars: secret ? { SECRET: secret } : ({} as Record<string, string>) }));
  if (primary) list.unshift({ name: 'primary', kind: 'sangam', url: primary.replace(/\/+$/, ''), vars: secret ? { SECRET: secret } : ({} as Record<string, string>) });
  for (const p of declaredPartners(env)) {
    if (list.some((e) => e.name === p.name)) throw new ConfigError(`Invalid configuration:\n  SANGAM_PARTNER_${p.name.toUpperCase()}_KIND: partner ${p.name} is declared twice`);
    list.push(p);
  }
  return list;
}

/** The environment checked against EnvSchema (with defaults) and the rules across variables. */
function readEnv(env: Record<string, string | undefined>): Env {
  const known = Object.keys(EnvSchema.properties);
  const raw: Record<string, unknown> = {};
  for (const k of known) if (env[k] !== undefined && env[k] !== '') raw[k] = env[k];
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const errors = [...Value.Errors(EnvSchema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = withDefaults as Env;
  if (e.SANGAM_PARTNER_TIMEOUT_MS >= e.SANGAM_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration:\n  SANGAM_PARTNER_TIMEOUT_MS must be shorter than SANGAM_REQUEST_TIMEOUT_MS');
  }
  if (e.SANGAM_WORKER_BACKOFF_MAX_MS < e.SANGAM_WORKER_BACKOFF_MS) {
    throw new ConfigError('Invalid configuration:\n  SANGAM_WORKER_BACKOFF_MAX_MS must not be shorter than SANGAM_WORKER_BACKOFF_MS');
  }
  if ((e.SANGAM_PARTNER_URL || e.SANGAM_PARTNERS) && !e.SANGAM_PARTNER_SECRET) {
    throw new ConfigError('Invalid configuration:\n  SANGAM_PARTNER_SECRET is required with partner endpoints (partner callbacks are verified with it)');
  }
  return e;
}

function partnerConfig(e: Env, env: Record<string, string | undefined>): Config['partner'] {
  return {
    secret: e.SANGAM_PARTNER_SECRET,
    timeoutMs: e.SANGAM_PARTNER_TIMEOUT_MS,
    endpoints: partnerEndpoints(e.SANGAM_PARTNER_URL, e.SANGAM_PARTNERS, e.SANGAM_PARTNER_SECRET, env),
    routes: pairs(e.SANGAM_PARTNER_ROUTES, ';', 'SANGAM_PARTNER_ROUTES', (v) => v.split('>').map((x) => x.trim()).filter(Boolean)),
    timeouts: pairs(e.SANGAM_PARTNER_TIMEOUTS, ',', 'SANGAM_PARTNER_TIMEOUTS', (v) => {
      const ms = Number(v);
      if (!Number.isInteger(ms) || ms < 10 || ms >= e.SANGAM_REQUEST_TIMEOUT_MS) throw new ConfigError(`Invalid configuration:\n  SANGAM_PARTNER_TIMEOUTS: ${v} must be whole milliseconds, ≥ 10 and below SANGAM_REQUEST_TIMEOUT_MS`);
      return ms;
    }),
    breaker: { errorPct: e.SANGAM_BREAKER_ERROR_PCT, minCalls: e.SANGAM_BREAKER_MIN_CALLS, resetMs: e.SANGAM_BREAKER_RESET_MS },
  };
}

/** The settings of the background workers that deliver webhooks, reconcile and watch for overdue pendings. */
function workerConfig(e: Env, env: Record<string, string | undefined>): Pick<Config, 'webhooks' | 'reconcile' | 'reversalWatchS' | 'attention' | 'float' | 'batches'> {
  return {
    webhooks: {
      retryScheduleS: e.SANGAM_WEBHOOK_RETRY_SCHEDULE.split(',').map(Number),
      allowPrivate: e.SANGAM_WEBHOOK_ALLOW_PRIVATE === '1',
      caFile: e.SANGAM_WEBHOOK_CA_FILE ?? null,
      timeoutMs: e.SANGAM_WEBHOOK_TIMEOUT_MS,
      disableAfterDays: e.SANGAM_WEBHOOK_DISABLE_AFTER_DAYS,
      pollMs: e.SANGAM_WEBHOOK_POLL_MS,
    },
    reconcile: {
      scheduleS: e.SANGAM_RECONCILE_SCHEDULE.split(',').map(Number),
      cutoffS: e.SANGAM_RECONCILE_CUTOFF_S,
      pollMs: e.SANGAM_RECONCILE_POLL_MS,
      leaseS: e.SANGAM_RECONCILE_LEASE_S,
      explicit: Boolean(env.SANGAM_RECONCILE_SCHEDULE),
    },
    reversalWatchS: e.SANGAM_REVERSAL_WATCH_SCHEDULE ? e.SANGAM_REVERSAL_WATCH_SCHEDULE.split(',').map(Number) : null,
    attention: {
      expectedFinalS: pairs(e.SANGAM_EXPECTED_FINAL_S, ',', 'SANGAM_EXPECTED_FINAL_S', (v) => {
        if (!/^\d+$/.test(v) || Number(v) > 90 * 86_400) throw new ConfigError(`Invalid configuration:\n  SANGAM_EXPECTED_FINAL_S: ${v} must be whole seconds, at most 90 days`);
        return Number(v);
      }),
      pollMs: e.SANGAM_OVERDUE_POLL_MS,
    },
    float: { checkMs: e.SANGAM_FLOAT_CHECK_MS, confirmChecks: e.SANGAM_FLOAT_CONFIRM_CHECKS, windowS: e.SANGAM_FLOAT_WINDOW_S ? Number(e.SANGAM_FLOAT_WINDOW_S) : null },
    batches: { identitySweepMs: e.SANGAM_BATCH_IDENTITY_SWEEP_MS, pollMs: e.SANGAM_BATCH_POLL_MS, leaseS: e.SANGAM_BATCH_LEASE_S, rowsInFlight: e.SANGAM_BATCH_ROWS_IN_FLIGHT, batchesInFlight: e.SANGAM_BATCHES_IN_FLIGHT, livePerSec: e.SANGAM_BATCH_LIVE_ROWS_PER_SEC },
  };
}

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = readEnv(env);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.SANGAM_DATA_DIR),
    publicUrl: (e.SANGAM_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    dbPoolMax: e.SANGAM_DB_POOL_MAX,
    workers: e.SANGAM_WORKERS === 'auto' ? availableParallelism() : Number(e.SANGAM_WORKERS),
    workerBackoff: { baseMs: e.SANGAM_WORKER_BACKOFF_MS, maxMs: e.SANGAM_WORKER_BACKOFF_MAX_MS },
    sandboxPendingMs: e.SANGAM_SANDBOX_PENDING_MS,
    finalizerPollMs: e.SANGAM_FINALIZER_POLL_MS,
    authCacheMs: e.SANGAM_AUTH_CACHE_MS,
    doclockerSessionTtlS: e.SANGAM_DOCLOCKER_SESSION_TTL_S,
    xmlUrlTtlS: e.SANGAM_XML_URL_TTL_S,
    preflightTtl: { lookupS: e.SANGAM_OPERATOR_LOOKUP_TTL_S, plansS: e.SANGAM_PLANS_TTL_S, dthInfoS: e.SANGAM_DTH_INFO_TTL_S },
    requestTimeoutMs: e.SANGAM_REQUEST_TIMEOUT_MS,
    idempotencyRetentionH: e.SANGAM_IDEMPOTENCY_RETENTION_H,
    auditRetention: { identity: e.SANGAM_AUDIT_RETAIN_IDENTITY_DAYS, bodies: e.SANGAM_AUDIT_RETAIN_BODIES_DAYS, metadata: e.SANGAM_AUDIT_RETENTION_DAYS },
    auditCheckpoint: { signingKey: e.SANGAM_AUDIT_SIGNING_KEY, everyS: e.SANGAM_AUDIT_CHECKPOINT_S },
    idempotencyLockMs: e.SANGAM_IDEMPOTENCY_LOCK_MS,
    rateLimit: { perSec: e.SANGAM_RATE_LIMIT_PER_SEC, burst: e.SANGAM_RATE_LIMIT_BURST },
    authFailuresPerMin: e.SANGAM_AUTH_FAILURES_PER_MIN,
    trustProxy: e.SANGAM_TRUST_PROXY?.trim() || undefined,
    redisUrl: e.SANGAM_REDIS_URL,
    partner: partnerConfig(e, env),
    ...workerConfig(e, env),
    lastUsedFlushMs: e.SANGAM_LAST_USED_FLUSH_MS,
    traces: e.OTEL_EXPORTER_OTLP_ENDPOINT ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, ''), serviceName: e.OTEL_SERVICE_NAME, exportDelayMs: e.OTEL_BSP_SCHEDULE_DELAY } : null,
    logLevel: e.LOG_LEVEL,
  };
}
