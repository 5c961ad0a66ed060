// Starts the service: validates the config, opens the store, applies migrations, listens, and shuts
// down gracefully on SIGTERM / SIGINT (stop accepting, finish in-flight requests, flush the audit
// writer, close the store). A bad config or a failed migration exits non-zero with the reason.
import { loadConfig } from './config.js';
import { openStore } from './db/client.js';
import { migrate } from './db/migrate.js';
import { buildApp } from './app.js';
import { startAdminSocket } from './admin/socket.js';

async function start(): Promise<void> {
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  await migrate(store.db);
  const { app } = await buildApp(config, store);
  const closeAdmin = store.kind === 'embedded' ? await startAdminSocket(config.dataDir, store.db) : async () => {};
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ store: store.kind, dataDir: store.kind === 'embedded' ? config.dataDir : undefined }, 'sangam ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await closeAdmin();
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

start().catch((err: unknown) => {
  process.stderr.write(`sangam failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
