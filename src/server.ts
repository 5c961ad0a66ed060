// Starts the service: validates the config, opens the store, applies migrations, listens, and shuts
// down gracefully on SIGTERM / SIGINT (stop accepting, finish in-flight requests, flush the audit
// writer, close the store). A bad config or a failed migration exits non-zero with the reason.
// Last resort: an exception or rejection that nothing handled leaves the process in an unknown state,
// so it is logged (fatal), the server stops as gracefully as it can within FATAL_GRACE_MS, and the
// process exits 1 for its supervisor to restart (README, "Running in production").
// With SANGAM_WORKERS > 1 on PostgreSQL, a primary applies the migrations once, then runs that many
// server processes on one port (node:cluster; cluster/supervisor.ts restarts one that dies, backing off
// a slot that keeps dying, and stops them all on SIGTERM / SIGINT). The background workers (finalizer,
// reconciler, webhook worker, checkpoints) lease their rows, so N processes share the work; without
// Redis the primary holds the rate-limit buckets for all of them (access/cluster-bucket.ts). The
// embedded store has one owner: there it stays one process.
// Boot (target < 2 s, issue #28): only the config and the embedded engine's thread are imported
// statically, so the engine opens on its thread while this one loads everything else (imported here).
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from './config.js';
import { PGlitePool } from './db/pglite-pool.js';

const FATAL_GRACE_MS = 5_000;

async function primary(config: Config): Promise<void> {
  const [{ openStore }, { migrate }, { serveClusterBuckets }, { Supervisor }] = await Promise.all([
    import('./db/client.js'),
    import('./db/migrate.js'),
    import('./access/cluster-bucket.js'),
    import('./cluster/supervisor.js'),
  ]);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1 });
  await migrate(store.db);
  await store.close();
  // Without Redis, the workers' rate-limit buckets live here, so N workers share one limit per key.
  if (!config.redisUrl) serveClusterBuckets();
  new Supervisor(config).start();
}

async function start(config: Config): Promise<void> {
  const t0 = performance.now();
  // The embedded engine opens on its own thread (db/pglite-thread.ts), and the store is opened and
  // migrated (statements the engine runs there) while the application's modules load on this one.
  const engine = config.databaseUrl ? undefined : PGlitePool.openIn(config.dataDir);
  engine?.catch(() => undefined); // awaited by openStore below, once its driver is loaded
  let migrationsMs = 0;
  const migrated = (async () => {
    const [{ openStore }, { migrate }] = await Promise.all([import('./db/client.js'), import('./db/migrate.js')]);
    const opened = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax, engine, traced: config.traces !== null });
    const m0 = performance.now();
    await migrate(opened.db);
    migrationsMs = performance.now() - m0;
    return opened;
  })();
  const [store, { buildApp }, { startAdminSocket }] = await Promise.all([migrated, import('./app.js'), import('./admin/socket.js')]);
  const t2 = performance.now();
  const { app, services } = await buildApp(config, store);
  const closeAdmin = store.kind === 'embedded' ? await startAdminSocket(config.dataDir, store.db, { settlement: async () => services.settlement }) : async () => {};
  await app.listen({ port: config.port, host: config.host });
  const ms = (a: number, b: number) => Math.round(b - a);
  const bootMs = { store_and_modules: ms(t0, t2), migrations: Math.round(migrationsMs), app: ms(t2, performance.now()), since_process_start: Math.round(performance.now()) };
  const where = listening(app.server.address(), config.host);
  app.log.info({ store: store.kind, dataDir: store.kind === 'embedded' ? config.dataDir : undefined, bootMs, ...where }, 'sangam ready');
  if (where.reachable === 'every network interface') {
    app.log.info(`listening on every network interface (HOST=${config.host}): other machines can reach this server; set HOST=127.0.0.1 to keep it on this machine`);
  }
  // A process manager that forked us (PM2's wait_ready, a test) learns we listen — on our port, not
  // some other process's.
  process.send?.('ready');

  let stopping = false;
  const stop = async (signal: string, code: number) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await closeAdmin();
      await app.close();
      await store.close();
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
  process.on('SIGINT', () => void stop('SIGINT', 0));
  const fatal = (err: unknown, origin: string) => {
    app.log.fatal({ err, origin }, 'unhandled error: the process stops and exits 1 (run it under a supervisor)');
    setTimeout(() => process.exit(1), FATAL_GRACE_MS).unref();
    void stop(origin, 1);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', (reason) => fatal(reason, 'unhandledRejection'));
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isWorker) (await import('./cluster/health.js')).followPrimary();
  if (cluster.isPrimary && config.workers > 1) {
    if (config.databaseUrl) return primary(config);
    (await import('./cluster/supervisor.js')).line('warn', 'SANGAM_WORKERS applies to PostgreSQL: the embedded store has a single owner, so one process serves', { workers: config.workers });
  }
  return start(config);
}

main().catch((err: unknown) => {
  process.stderr.write(`sangam failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/** Which address the server listens on, for the start-up log: `host:port`, and who can reach it. */
export function listening(address: string | AddressInfo | null, host: string): { listen: string; reachable: string } {
  const a = address && typeof address === 'object' ? address : null;
  const shown = a ? (a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`) : String(address ?? host);
  const ip = a?.address ?? host;
  const loopback = ip === 'localhost' || ip === '::1' || ip.startsWith('127.');
  const everywhere = ip === '0.0.0.0' || ip === '::';
  return { listen: shown, reachable: loopback ? 'this machine only' : everywhere ? 'every network interface' : `the interface of ${ip}` };
}
