// Summarises the contract coverage of a test run: the (method, path, status) answers the harness saw
// (test-artifacts/contract-coverage/*.json, written by test/contract.ts) against the responses the
// document declares (dist/openapi.json, written by scripts/openapi.mjs). Prints the declared statuses no
// test produced, and the recorded violations. Informational: the tests themselves fail on a violation.
// `--clear` empties the record before a run.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'test-artifacts', 'contract-coverage');
if (process.argv.includes('--clear')) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const doc = JSON.parse(readFileSync(path.join(root, 'dist', 'openapi.json'), 'utf8'));
const observed = new Map();
const violations = [];
for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {
  const rec = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  for (const [k, n] of Object.entries(rec.observed)) observed.set(k, (observed.get(k) ?? 0) + n);
  for (const v of rec.violations) violations.push({ ...v, file: rec.file });
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const never = [];
const unseenOps = [];
let declared = 0;
for (const [p, item] of Object.entries(doc.paths)) {
  for (const m of METHODS.filter((x) => item[x])) {
    const statuses = Object.keys(item[m].responses ?? {});
    const seen = [...observed.keys()].filter((k) => k.startsWith(`${m.toUpperCase()} ${p} `));
    if (seen.length === 0) unseenOps.push(`${m.toUpperCase()} ${p}`);
    for (const s of statuses) {
      declared++;
      const hit = seen.some((k) => {
        const code = k.slice(k.lastIndexOf(' ') + 1);
        return s === code || (/^[1-5]XX$/i.test(s) && code[0] === s[0]) || s === 'default';
      });
      if (!hit) never.push(`${m.toUpperCase()} ${p} ${s}`);
    }
  }
}

console.log(`contract coverage: ${observed.size} (method, path, status) answers observed; ${declared - never.length} of ${declared} declared responses produced by a test`);
if (unseenOps.length) console.log(`operations no test called:\n  ${unseenOps.join('\n  ')}`);
if (never.length) console.log(`declared responses no test produced:\n  ${never.join('\n  ')}`);
if (violations.length) {
  const counts = new Map();
  for (const v of violations) {
    const k = `${v.method} ${v.path} ${v.status}: ${v.problems.join('; ').slice(0, 160)}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  console.log(`contract violations: ${violations.length}`);
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${n}× ${k}`);
}
