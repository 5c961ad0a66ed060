// The SDK as a stranger installs it: `npm pack` in sdk/, the tarball installed into a fresh project in a temporary directory, an ESM program importing it type-checked by
// tsc with `strict` and no skipLibCheck, then run. The install is offline: the fresh project gets a
// lockfile whose entries (resolved URL, integrity) come from the repository's own lockfile, so npm
// takes every tarball from the cache that installing the repository filled, and no registry is asked.
// The pack skips the prepack build (`npm test` has built sdk/dist already): rebuilding sdk/dist here
// would rewrite files that sdk.test.ts, running beside this one, is importing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  license?: string;
  dependencies?: Record<string, string>;
}

const run = (file: string, args: string[], cwd: string) =>
  new Promise<{ code: number; stdout: string; out: string }>((resolve) =>
    execFile(file, args, { cwd, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, out: stdout + stderr }),
    ),
  );

/** The root lockfile's entries for `names` and everything they depend on, as a fresh project's lockfile lists them. */
function lockedClosure(names: string[]): Record<string, LockEntry> {
  const locked = (JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const out: Record<string, LockEntry> = {};
  const queue = [...names];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const key = `node_modules/${name}`;
    if (out[key]) continue;
    const e = locked[key];
    assert.ok(e, `${name} is not in the repository's lockfile`);
    out[key] = { version: e.version, resolved: e.resolved, integrity: e.integrity, license: e.license, dependencies: e.dependencies };
    queue.push(...Object.keys(e.dependencies ?? {}));
  }
  return out;
}

/** A project that depends on the tarball and on @types/node (as any Node project in TypeScript does), locked. */
function freshProject(dir: string, tarball: string, sdk: { version: string; dependencies: Record<string, string> }) {
  const typesNode = lockedClosure(['@types/node'])['node_modules/@types/node']!.version;
  const dependencies = { '@sangam/sdk': `file:${tarball}`, '@types/node': typesNode };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true, type: 'module', dependencies }, null, 2));
  const packages = {
    '': { name: 'fresh', version: '1.0.0', dependencies },
    ...lockedClosure(['@types/node', ...Object.keys(sdk.dependencies)]),
    'node_modules/@sangam/sdk': { version: sdk.version, resolved: `file:${tarball}`, dependencies: sdk.dependencies },
  };
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'] }, files: ['main.ts'] }),
  );
  writeFileSync(path.join(dir, 'main.ts'), PROGRAM);
}

// Reads the package's types (paths, the envelope's statuscode, the key's environment) and runs its
// webhook check on a delivery signed by the test, so both runtime dependencies must resolve.
const PROGRAM = `import { Sangam, SangamError, verifyWebhook, type paths } from '@sangam/sdk';
type Wallet = paths['/api/v1/account/wallet']['get']['responses'][200]['content']['application/json'];
const statuscode = (w: Wallet): 'TXN' | 'TUP' | 'ERR' => w.statuscode;
const sangam = new Sangam({ apiKey: 'sk_test_' + 'a'.repeat(32), baseUrl: 'http://127.0.0.1:9' });
const [secret, id, timestamp, body, signature] = process.argv.slice(2) as [string, string, string, string, string];
const event = verifyWebhook(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, secret);
console.log(JSON.stringify({ environment: sangam.environment, type: event.type, error: new SangamError(401, 101, 'no key', [], undefined, undefined, null) instanceof Error, fn: typeof statuscode }));
`;

describe('the packed SDK in a fresh project', () => {
  it('npm pack gives a tarball with dist/ and its types that installs offline, type-checks strictly and runs as ESM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sangam-sdk-'));
    try {
      const packed = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], path.join(root, 'sdk'));
      assert.equal(packed.code, 0, packed.out);
      const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
      const files = info!.files.map((f) => f.path);
      for (const want of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'dist/webhooks.js']) assert.ok(files.includes(want), `${want} missing from ${files.join(', ')}`);
      assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('examples/')), 'sources stay out of the tarball');

      const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; scripts: Record<string, string> };
      assert.equal(manifest.scripts['prepack'], 'npm run build', 'a pack from a fresh checkout builds dist/ first');
      freshProject(dir, path.join(dir, info!.filename), manifest);
      const installed = await run(npm, ['ci', '--offline'], dir);
      assert.equal(installed.code, 0, installed.out);

      const tsc = await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
      assert.equal(tsc.code, 0, tsc.out);

      const secret = `whsec_${Buffer.from('fresh-project-secret-0123456789').toString('base64')}`;
      const [id, timestamp, body] = ['msg_fresh', String(Math.floor(Date.now() / 1000)), JSON.stringify({ type: 'transaction.success', timestamp: new Date().toISOString(), data: {} })];
      const signature = `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
      const ran = await run(process.execPath, ['main.js', secret, id, timestamp, body, signature], dir);
      assert.equal(ran.code, 0, ran.out);
      assert.deepEqual(JSON.parse(ran.stdout), { environment: 'sandbox', type: 'transaction.success', error: true, fn: 'function' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
