// Live-mode harness: the real partner simulator as a separate process (`sangam partner-sim`), and an
// app that listens on a real port so the simulator's signed callbacks reach it. The seeded account is
// approved for every operation, allow-listed for 127.0.0.1 and topped up.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { topUp } from '../src/ledger/ledger.js';
import { checkLedger } from '../src/ledger/check.js';
import { startApp, type TestApp } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface Sim {
  url: string;
  secret: string;
  child: ChildProcess;
  faults(f: Record<string, unknown>): Promise<void>;
  calls(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startSim(opts: { pendingMs?: number; latencyMs?: number; secret?: string } = {}): Promise<Sim> {
  const secret = opts.secret ?? `whsec_${randomBytes(24).toString('base64')}`;
  const child = spawn(
    process.execPath,
    ['bin/sangam.js', 'partner-sim', '--port', '0', '--secret', secret, '--latency-ms', String(opts.latencyMs ?? 0), '--pending-ms', String(opts.pendingMs ?? 300)],
    // stderr through this process, never inherited: a simulator orphaned by a failed test must not hold
    // the test runner's pipe open (the runner would wait for it forever).
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`partner-sim exited with ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    secret,
    child,
    async faults(f) {
      await fetch(`${url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(f) });
    },
    async calls() {
      return (await (await fetch(`${url}/_sim/calls`)).json()) as Record<string, number>;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export interface LiveApp extends TestApp {
  sim: Sim;
  base: string;
  /** Fails the test if any ledger invariant is broken. */
  assertLedger(): Promise<void>;
  wallet(key?: string): Promise<{ balance: number; held: number }>;
}

export async function startLive(env: Record<string, string> = {}, topUpInr = 10_000, sim?: Sim): Promise<LiveApp> {
  const s = sim ?? (await startSim());
  const port = await freePort();
  const t = await startApp({
    SANGAM_PARTNER_URL: s.url,
    SANGAM_PARTNER_SECRET: s.secret,
    SANGAM_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SANGAM_PARTNER_TIMEOUT_MS: '2000',
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
  await approve(t.store.db, t.accountId, 'all');
  if (topUpInr > 0) await topUp(t.store.db, t.accountId, topUpInr * 100, 'test funds');
  const close = t.close;
  return {
    ...t,
    sim: s,
    base: `http://127.0.0.1:${port}`,
    async assertLedger() {
      const r = await checkLedger(t.store.db);
      if (!r.ok) throw new Error(`ledger check failed:\n${r.breaches.join('\n')}`);
    },
    async wallet(key) {
      const r = await t.call('GET', '/api/v1/account/wallet', { key: key ?? t.liveKey });
      return { balance: r.body.data.balance, held: r.body.data.held };
    },
    async close() {
      await close();
      if (!sim) await s.stop();
    },
  };
}
