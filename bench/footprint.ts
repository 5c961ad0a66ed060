// Embedded-store footprint: cold start (process spawn → /health answers, on an existing data
// directory) and resident memory after a few seconds idle. The first boot (initdb + migrations) is
// reported separately.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib.js';

const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));

async function boot(dataDir: string, port: number): Promise<{ ms: number; rssMB: number }> {
  const started = performance.now();
  const child = fork(SERVER, [], { env: { ...process.env, DATABASE_URL: '', SANGAM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  for (let i = 0; i < 1200 && !(await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 10));
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 3000));
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, rssMB: rssKb / 1024 };
}

export async function footprint() {
  const dir = mkdtempSync(path.join(tmpdir(), 'sangam-footprint-'));
  const port = await freePort();
  try {
    const first = await boot(dir, port);
    const cold = await boot(dir, port);
    return { firstBootMs: first.ms, coldStartMs: cold.ms, idleRssMB: cold.rssMB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
