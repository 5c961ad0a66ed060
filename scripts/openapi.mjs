// Builds the published API description artefacts from the compiled server (run after `tsc`):
//   dist/openapi.json                   the document /openapi.json serves, taken from a booted app on a
//                                       throwaway embedded store (so it is exactly what clients get);
//   dist/sangam.postman_collection.json a Postman collection converted from it (openapi-to-postmanv2);
// then lints the document with Redocly's recommended rules (redocly.yaml). Exits non-zero on a lint
// error, so CI (.ci/run) fails. `--no-lint` only writes the files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Converter from 'openapi-to-postmanv2';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (...p) => path.join(root, 'dist', ...p);
const { loadConfig } = await import(dist('src/config.js'));
const { openStore } = await import(dist('src/db/client.js'));
const { migrate } = await import(dist('src/db/migrate.js'));
const { buildApp } = await import(dist('src/app.js'));

async function servedDocument() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sangam-openapi-'));
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', SANGAM_DATA_DIR: dataDir, DATABASE_URL: undefined });
    const store = await openStore({ databaseUrl: undefined, dataDir });
    await migrate(store.db);
    const { app } = await buildApp(config, store);
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
      return res.json();
    } finally {
      await app.close();
      await store.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function postman(doc) {
  return new Promise((resolve, reject) =>
    Converter.convert({ type: 'json', data: doc }, { requestNameSource: 'Fallback', folderStrategy: 'Tags', includeAuthInfoInExample: false }, (err, out) => {
      if (err) return reject(err);
      if (!out.result) return reject(new Error(`openapi-to-postmanv2: ${out.reason}`));
      resolve(out.output[0].data);
    }),
  );
}

const doc = await servedDocument();
writeFileSync(dist('openapi.json'), `${JSON.stringify(doc, null, 2)}\n`);
const collection = await postman(doc);
writeFileSync(dist('sangam.postman_collection.json'), `${JSON.stringify(collection, null, 2)}\n`);
console.log(`wrote dist/openapi.json (${Object.keys(doc.paths).length} paths) and dist/sangam.postman_collection.json (${collection.item.length} folders)`);

if (!process.argv.includes('--no-lint')) {
  const lint = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', dist('openapi.json'), '--config', path.join(root, 'redocly.yaml'), '--format', 'codeframe'], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (lint.status !== 0) {
    console.error('openapi: redocly lint failed');
    process.exit(lint.status ?? 1);
  }
}
