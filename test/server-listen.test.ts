// The address the server listens on is said at start-up (README, "Two commands"): HOST defaults to
// every interface (CONTRACT §8), so the `sangam ready` line carries `listen` and `reachable`, and a
// listener on every interface adds a line saying how to keep it on this machine (HOST=127.0.0.1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freshStoreLocation } from './harness.js';
import { freePort } from './live-harness.js';

const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));

/**
 * Starts the server with `host`, reads its log until `until` matches a line (the log is written
 * asynchronously: read it as it arrives, not at exit), stops it, and returns the lines (JSON).
 */
async function startLog(host: string, until: RegExp): Promise<Array<Record<string, unknown>>> {
  const loc = await freshStoreLocation();
  const port = await freePort();
  const server = spawn(process.execPath, [SERVER], {
    env: { ...process.env, DATABASE_URL: loc.databaseUrl ?? '', SANGAM_DATA_DIR: loc.dataDir, PORT: String(port), HOST: host, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        if (until.test(out)) resolve();
      });
      server.once('exit', (code) => reject(new Error(`server exited (${code}) before it logged ${until}: ${out}`)));
    });
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)));
    await loc.drop();
  }
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), port }));
}

describe('the start-up log says where the server listens', () => {
  it('HOST=127.0.0.1: this machine only', async () => {
    const lines = await startLog('127.0.0.1', /sangam ready/);
    const ready = lines.find((l) => l.msg === 'sangam ready');
    assert.ok(ready, JSON.stringify(lines));
    assert.equal(ready.listen, `127.0.0.1:${String(ready.port)}`);
    assert.equal(ready.reachable, 'this machine only');
    assert.ok(!lines.some((l) => /every network interface/.test(String(l.msg))));
  });

  it('HOST=0.0.0.0 (the default): every interface, and how to narrow it', async () => {
    const lines = await startLog('0.0.0.0', /sangam ready[^]*every network interface/);
    const ready = lines.find((l) => l.msg === 'sangam ready');
    assert.ok(ready, JSON.stringify(lines));
    assert.equal(ready.listen, `0.0.0.0:${String(ready.port)}`);
    assert.equal(ready.reachable, 'every network interface');
    assert.ok(lines.some((l) => /every network interface.*HOST=127\.0\.0\.1/.test(String(l.msg))), JSON.stringify(lines));
  });
});
