// Webhook delivery benchmark: N events written to the outbox at once, delivered by the worker to a
// local receiver; prints events per second and the latency from the state change to the delivery.
import http from 'node:http';
import { createAccount } from '../src/accounts/store.js';
import { createEndpoint, enqueueEvents } from '../src/webhooks/store.js';
import { startApp } from '../test/harness.js';

export interface WebhookBench {
  events: number;
  perSec: number;
  p50: number;
  p99: number;
}

export async function webhookBench(n: number): Promise<WebhookBench> {
  const latencies: number[] = [];
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      latencies.push(Date.now() - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp));
      res.writeHead(204).end();
      if (latencies.length === n) resolveAll();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '20' }, undefined, false);
  try {
    const scope = { accountId: (await createAccount(t.store.db, 'bench')).id, environment: 'sandbox' as const };
    await createEndpoint(t.store.db, scope, url, null);
    const started = Date.now();
    for (let i = 0; i < n; i += 100) {
      const batch = Array.from({ length: Math.min(n, i + 100) - i }, (_, k) => ({
        scope,
        type: 'transaction.success' as const,
        txnId: `txn_bench_${i + k}`,
        data: { status: 'success', n: i + k },
      }));
      await t.store.db.transaction().execute((trx) => enqueueEvents(trx, batch));
    }
    await all;
    const seconds = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { events: n, perSec: n / seconds, p50: latencies[Math.floor(n * 0.5)]!, p99: latencies[Math.floor(n * 0.99)]! };
  } finally {
    await t.close();
    server.close();
  }
}
