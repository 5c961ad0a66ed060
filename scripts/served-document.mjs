// Owns getting the OpenAPI document exactly as /openapi.json serves it, without a running server: the
// compiled app (dist/, after `tsc`) booted on a throwaway embedded store (the document does not depend
// on data). Used by scripts/openapi.mjs (published artefacts, lint) and scripts/sdk-types.mjs (SDK types).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'dist', p);

export async function servedDocument() {
  const { loadConfig } = await import(dist('src/config.js'));
  const { openStore } = await import(dist('src/db/client.js'));
  const { migrate } = await import(dist('src/db/migrate.js'));
  const { buildApp } = await import(dist('src/app.js'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sangam-openapi-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', SANGAM_DATA_DIR: dataDir, DATABASE_URL: undefined });
  const store = await openStore({ databaseUrl: undefined, dataDir, poolMax: 1 });
  try {
    await migrate(store.db);
    const { app } = await buildApp(config, store);
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
      return res.json();
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
