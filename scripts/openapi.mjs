// Builds the published API description artefacts from the compiled server (run after `tsc`):
//   dist/openapi.json                   the document /openapi.json serves, taken from a booted app on a
//                                       throwaway embedded store (so it is exactly what clients get);
//   dist/sangam.postman_collection.json a Postman collection made from it that runs as it is, with tests
//                                       (scripts/postman.mjs; CI runs it with newman);
// then lints the document with Redocly's recommended rules (redocly.yaml). Exits non-zero on a lint
// error, so CI (.ci/run) fails. `--no-lint` only writes the files.
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postmanCollection } from './postman.mjs';
import { servedDocument } from './served-document.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (...p) => path.join(root, 'dist', ...p);
const doc = await servedDocument();
writeFileSync(dist('openapi.json'), `${JSON.stringify(doc, null, 2)}\n`);
const collection = await postmanCollection(doc);
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
