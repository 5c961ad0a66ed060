// Owns what `npm test` runs: every `*.test.js` of the build (dist/src, dist/partner-sim, dist/test),
// listed by name and handed to `node --test`, on any supported Node. Node 22 and 24 take the paths
// given to `--test` as globs and no longer search a directory (`node --test dist/test` stops with
// "Cannot find module"), while Node 20 searched it and also ran every helper module sitting in a
// folder named test (harness.js, live-harness.js …) as if it were a test. Naming the files works the
// same on every line and runs tests only. Arguments are passed on: `npm test -- dist/test/live.test.js`
// runs that file alone (any argument not ending in .js is a `node --test` option).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['dist/src', 'dist/partner-sim', 'dist/test'];

function testsUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testsUnder(full);
    return e.name.endsWith('.test.js') ? [full] : [];
  });
}

const args = process.argv.slice(2);
const named = args.filter((a) => a.endsWith('.js'));
const options = args.filter((a) => !a.endsWith('.js'));
const files = named.length > 0 ? named : ROOTS.flatMap(testsUnder).sort();
if (files.length === 0) {
  console.error('no test files under dist/: build first (npm run build)');
  process.exit(1);
}
const child = spawn(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-timeout=600000', ...options, ...files], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
