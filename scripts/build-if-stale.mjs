// Builds (`npm run build`) only when an input of the build changed since the last one: `npm start` and
// `npm test` on an unchanged checkout serve from the build that `npm install` made, in well under a
// second. The inputs are hashed by content (sources, shared/, the emulators, the web console, the SDK,
// configs, the lockfile), so a checkout, an edit or a `git pull` that changes any of them rebuilds; a
// timestamp alone would not notice a file restored to an older version. `--force` always builds. `npm install` runs this too
// (`prepare`), without `--force`: the first `npx sangam` in a checkout installs the checkout into npm's
// npx cache, which runs `prepare` again, and a forced build there held that first command for 80–100 s.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

const ROOTS = ['src', 'shared', 'partner-sim', 'test', 'bench', 'web', 'sdk/src', 'scripts'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'sdk/tsconfig.json', 'sdk/package.json', 'shared/package.json', 'partner-sim/package.json', 'web/tsconfig.json', 'web/vite.config.ts', 'web/index.html'];
const STAMP = 'dist/.build-stamp';
const OUTPUTS = ['dist/src/server.js', 'dist/web/index.html'];

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
}

function fingerprint() {
  const files = [];
  for (const r of ROOTS) walk(r, files);
  for (const f of FILES) if (existsSync(f)) files.push(f);
  const h = createHash('sha256');
  for (const f of files) h.update(f).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

const want = fingerprint();
const have = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (!process.argv.includes('--force') && want === have && OUTPUTS.every((o) => existsSync(o))) process.exit(0);
console.error(have ? '== sources changed since the last build: building' : '== no build yet: building');
// Outputs of deleted sources must not linger (the test runner would still run a deleted test).
for (const d of ['dist/src', 'dist/shared', 'dist/partner-sim', 'dist/test', 'dist/bench', 'dist/.tsbuildinfo']) rmSync(d, { recursive: true, force: true });
execSync('npm run --silent build', { stdio: 'inherit' });
writeFileSync(STAMP, `${want}\n`);
