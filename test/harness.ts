// Test harness: a real app on a real, fresh store per test file — embedded PGlite by default, or a
// fresh database on the PostgreSQL server named by DATABASE_URL — with a seeded account and keys.
// Requests go through the whole Fastify pipeline (app.inject); nothing is mocked.
// Every answer an app sends is checked against its own /openapi.json (test/contract.ts): `call` throws
// on a violation of the answer it got; violations of answers to other clients (sockets, direct
// inject) fail `stop`/`close`. SANGAM_CONTRACT_STRICT=0 only records them.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import type { Db } from '../src/db/client.js';
import { loadConfig, type Config } from '../src/config.js';
import { embeddedDir, openStore, type Store } from '../src/db/client.js';
import { listMigrations, migrate } from '../src/db/migrate.js';
import { buildApp, type App } from '../src/app.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { randomBase62 } from '../src/ids.js';
import { OPERATIONS } from '../src/operations/registry.js';
import { CONTRACT_STRICT, describeViolation, watchContract } from './contract.js';

/** A store location that is fresh for this caller: a new PostgreSQL database or a new PGlite directory. */
export interface StoreLocation {
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

async function embeddedTemplate(): Promise<string> {
  const hash = createHash('sha256').update(listMigrations().map((m) => m.checksum).join()).digest('hex').slice(0, 16);
  const tpl = path.join(tmpdir(), `sangam-pglite-template-${hash}`);
  const ready = path.join(tpl, 'READY');
  if (existsSync(ready)) return tpl;
  try {
    mkdirSync(`${tpl}.lock`);
  } catch {
    for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
    if (existsSync(ready)) return tpl;
    throw new Error(`timed out waiting for ${tpl}`);
  }
  try {
    rmSync(tpl, { recursive: true, force: true });
    const store = await openStore({ databaseUrl: undefined, dataDir: tpl });
    await migrate(store.db);
    await store.close();
    writeFileSync(ready, '');
  } finally {
    rmSync(`${tpl}.lock`, { recursive: true, force: true });
  }
  return tpl;
}

export async function freshStoreLocation(): Promise<StoreLocation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sangam-test-'));
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    cpSync(embeddedDir(await embeddedTemplate()), embeddedDir(dataDir), { recursive: true });
    return { databaseUrl: undefined, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `sangam_t_${randomBase62(12).toLowerCase()}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
}

export interface CallOptions {
  body?: unknown;
  payload?: string | Buffer;
  query?: Record<string, string>;
  key?: string | null;
  headers?: Record<string, string>;
  /** The socket peer address the request comes from. */
  ip?: string;
}

export interface TestApp extends App {
  config: Config;
  store: Store;
  location: StoreLocation;
  accountId: string;
  key: string;
  keyId: string;
  liveKey: string;
  call(method: string, url: string, opts?: CallOptions): Promise<Response>;
  /** Stops the app and its store, keeping the data (for restart tests). */
  stop(): Promise<void>;
  /** Stops the app and deletes the store. */
  close(): Promise<void>;
}

export const TEST_ENV = {
  LOG_LEVEL: 'silent',
  SANGAM_SANDBOX_PENDING_MS: '300',
  SANGAM_FINALIZER_POLL_MS: '50',
  SANGAM_AUTH_CACHE_MS: '0',
  SANGAM_RATE_LIMIT_PER_SEC: '100000',
  SANGAM_RATE_LIMIT_BURST: '100000',
  SANGAM_BATCH_LIVE_ROWS_PER_SEC: '10000',
  SANGAM_AUTH_FAILURES_PER_MIN: '100000',
};

/** Starts an app on `location` (a fresh one by default); seeds an account and keys unless `seed` is false. */
export async function startApp(env: Record<string, string> = {}, location?: StoreLocation, seed = true, logStream?: NodeJS.WritableStream): Promise<TestApp> {
  const loc = location ?? (await freshStoreLocation());
  const config = loadConfig({ ...TEST_ENV, ...env, DATABASE_URL: loc.databaseUrl, SANGAM_DATA_DIR: loc.dataDir, PORT: '8080' });
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 5, traced: config.traces !== null });
  await migrate(store.db);
  const built = await buildApp(config, store, { logStream });
  const contract = watchContract(built.app);
  await built.app.ready();
  await contract.ready();
  let accountId = '';
  let key = { id: '', key: '' };
  let live = { id: '', key: '' };
  if (seed) {
    accountId = (await createAccount(store.db, 'Test Fintech')).id;
    key = await createKey(store.db, accountId, 'sandbox');
    live = await createKey(store.db, accountId, 'live');
  }
  const stop = async () => {
    await built.app.close();
    await store.close();
    const unreported = contract.watch.pending();
    if (CONTRACT_STRICT && unreported.length) throw new Error(unreported.map(describeViolation).join('\n'));
  };
  return {
    ...built,
    config,
    store,
    location: loc,
    accountId,
    key: key.key,
    keyId: key.id,
    liveKey: live.key,
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const k = opts.key === undefined ? key.key : opts.key;
      if (k !== null) headers.authorization ??= `Bearer ${k}`;
      let payload = opts.payload;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await built.app.inject({ method: method as 'GET', url, query: opts.query, headers, payload, remoteAddress: opts.ip });
      const violation = contract.watch.take(String(res.headers['x-request-id']));
      if (violation && CONTRACT_STRICT) throw new Error(describeViolation(violation));
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, headers: res.headers, body, text: res.body };
    },
    stop,
    async close() {
      try {
        await stop();
      } finally {
        await loc.drop();
      }
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 25): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** An operation's path, from its declaration (operations/registry.ts). */
const pathOf = (slug: string): string => {
  const op = OPERATIONS.find((o) => o.slug === slug);
  if (!op) throw new Error(`no operation ${slug} in the registry`);
  return op.path;
};

/** Short names for the operations' paths in tests. */
export const PATHS = {
  signature: pathOf('signature-match'),
  init: pathOf('doclocker-initialize'),
  aadhaar: pathOf('doclocker-download-aadhaar'),
  bank: pathOf('mobile-to-bank-account'),
  upi: pathOf('upi-payment-status'),
  recharge: pathOf('recharge-commission'),
  dth: pathOf('dth-recharge'),
  names: pathOf('name-match'),
};

let seq = 0;
export const ref = (prefix = 'ref') => `${prefix}-${process.pid}-${++seq}-${randomBase62(6)}`;
export const uuid = () => crypto.randomUUID();

/** Valid bodies for each operation; override fields per test. */
export const VALID = {
  signature: () => ({ reference_id: ref('sig'), consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' }),
  init: () => ({ reference_id: ref('init'), consent: true }),
  aadhaar: () => ({ reference_id: ref('aad'), consent: true, doclocker__client__id: 'client-12345678', aadhaar_number: '234123412346' }),
  bank: () => ({ reference_id: ref('bank'), consent: true, mobile: '9876543210' }),
  upi: () => ({ reference_id: ref('upi'), consent: true, vpa: 'success@sandbox', amount: 100.5, idempotency_key: uuid() }),
  recharge: () => ({ reference_id: ref('rc'), consent: true, mobile: '9876543210', operator: 'JIO', amount: 199 }),
  dth: () => ({ reference_id: ref('dth'), consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 350 }),
  names: () => ({ reference_id: ref('names'), consent: true, name_1: 'Priya Sharma', name_2: 'PRIYA SHARMA' }),
};

/** An operation's declared example with a fresh reference (and idempotency key, where it takes one). */
const exampleOf = (op: (typeof OPERATIONS)[number]) => () => {
  const body: Record<string, unknown> = { ...op.example, reference_id: ref(op.slug) };
  if ('idempotency_key' in body) body.idempotency_key = uuid();
  return body;
};

export interface Route {
  method: string;
  /** The path as the OpenAPI document writes it, `{name}` for a path parameter. */
  path: string;
  /** A valid body, where the route takes one. */
  body?: () => Record<string, unknown>;
  /** It reads the account's money or money records: the security suite probes it across environments and accounts. */
  money?: true;
  /** Public: it answers without an API key (the consent receipt key, CONTRACT §13); the security suite checks that instead. */
  public?: true;
}

/**
 * Every /api/v1 route a key can call: the security suite (test/security.test.ts) runs its auth checks
 * on each and the fuzzer (test/fuzz.test.ts) its hostile requests. Both fail if a documented route is
 * missing here.
 */
export const ROUTES: Route[] = [
  ...OPERATIONS.flatMap((op) => (op.method === 'GET' ? ['GET', 'POST'] : ['POST']).map((method) => ({ method, path: op.path, body: exampleOf(op) }))),
  { method: 'GET', path: '/api/v1/transactions/{reference_id}', money: true },
  { method: 'GET', path: '/api/v1/account/wallet', money: true },
  { method: 'GET', path: '/api/v1/account/statement', money: true },
  { method: 'GET', path: '/api/v1/account/go-live' },
  { method: 'GET', path: '/api/v1/mobile-recharge/operators' },
  { method: 'GET', path: '/api/v1/dth/operators' },
  { method: 'GET', path: '/api/v1/mobile-recharge/operator-lookup' },
  { method: 'GET', path: '/api/v1/mobile-recharge/plans' },
  { method: 'GET', path: '/api/v1/dth/subscriber-info' },
  { method: 'POST', path: '/api/v1/webhook-endpoints', body: () => ({ url: 'https://example.com/hooks' }) },
  { method: 'GET', path: '/api/v1/webhook-endpoints' },
  { method: 'DELETE', path: '/api/v1/webhook-endpoints/{id}' },
  { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/rotate-secret', body: () => ({}) },
  { method: 'GET', path: '/api/v1/webhook-endpoints/{id}/deliveries', money: true },
  { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/replay', body: () => ({ since: '2026-01-01T00:00:00Z' }) },
  { method: 'GET', path: '/api/v1/audit-logs', money: true },
  { method: 'GET', path: '/api/v1/audit-logs/export', money: true },
  { method: 'GET', path: '/api/v1/audit-logs/{request_id}', money: true },
  { method: 'POST', path: '/api/v1/erasures', body: () => ({ reference_id: ref('erase') }) },
  {
    method: 'POST',
    path: '/api/v1/consents',
    body: () => ({
      subject: { mobile: '9123456780' },
      purpose: { code: 'kyc', text: 'To verify your bank account' },
      operations: ['mobile-to-bank-account'],
      notice: { version: '1', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
    }),
  },
  { method: 'GET', path: '/api/v1/consents' },
  { method: 'GET', path: '/api/v1/consents/public-key', public: true },
  { method: 'GET', path: '/api/v1/consents/{id}' },
  { method: 'POST', path: '/api/v1/consents/{id}/withdraw', body: () => ({}) },
  { method: 'POST', path: '/api/v1/batches', body: () => ({ operation: 'name-match', items: [{ ...VALID.names() }] }) },
  { method: 'GET', path: '/api/v1/batches/{id}', money: true },
  { method: 'GET', path: '/api/v1/batches/{id}/items', money: true },
  { method: 'GET', path: '/api/v1/batches/{id}/results', money: true },
  { method: 'POST', path: '/api/v1/batches/{id}/cancel', body: () => ({}) },
];

/** Every row of every table as text, on either store: what a dump of the database would show. */
export async function dumpTables(db: Db): Promise<string> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db);
  let dump = '';
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
    dump += `${rows.rows.map((r) => r.row).join('\n')}\n`;
  }
  return dump;
}
