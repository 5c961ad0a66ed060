// Audit search and export over one million rows (PostgreSQL): rows are generated in the store with
// generate_series, then typical console searches are timed (median of 5) and a full export streamed.
// The generated rows carry chain positions (spread over the 64 chains, as concurrent writers spread
// them) but no hashes: this measures searching and exporting, not the chain (`audit verify`).
import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openStore } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount } from '../src/accounts/store.js';
import { searchAudit, type AuditFilters } from '../src/audit/search.js';
import { exportStream } from '../src/audit/export.js';
import type { StoreLocation } from '../test/harness.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function auditBench(loc: StoreLocation, rows: number) {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  await migrate(store.db);
  const account = (await createAccount(store.db, 'big')).id;
  const other = (await createAccount(store.db, 'other')).id;
  const t0 = performance.now();
  await sql`
    INSERT INTO audit_logs (request_id, created_at, account_id, key_id, environment, client_ip, method, path, operation,
                            http_status, ok, statuscode, reference_id, latency_ms, request_body, response_body, chain, seq)
    SELECT 'req_bench' || g, now() - (g || ' seconds')::interval, CASE WHEN g % 10 = 0 THEN ${other} ELSE ${account} END,
           'key_bench', CASE WHEN g % 7 = 0 THEN 'live' ELSE 'sandbox' END, '127.0.0.1', 'POST', '/api/v1/upi-payment/upi-payment-status',
           (ARRAY['upi-payment-status','signature-match','recharge-commission','dth-recharge'])[1 + g % 4],
           CASE WHEN g % 13 = 0 THEN 422 ELSE 200 END, g % 13 <> 0, CASE WHEN g % 13 = 0 THEN 'ERR' ELSE 'TXN' END,
           'ref-' || g, (g % 50)::float8, jsonb_build_object('reference_id', 'ref-' || g),
           jsonb_build_object('message', CASE WHEN g % 97 = 0 THEN 'Payment declined by the bank' ELSE 'Payment successful' END),
           (g % 64)::smallint, g
    FROM generate_series(1, ${rows}) g`.execute(store.db);
  await sql`ANALYZE audit_logs`.execute(store.db);
  const loadS = (performance.now() - t0) / 1000;

  const cases: Array<[string, AuditFilters]> = [
    ['latest page (no filter)', {}],
    ['by reference_id', { reference_id: `ref-${Math.floor(rows / 2) + 1}` }],
    ['by operation', { operation: 'dth-recharge' }],
    ['failures in the last hour', { ok: false, from: new Date(Date.now() - 3_600_000).toISOString() }],
    ['free text in message', { q: 'declined' }],
  ];
  const searches: Array<{ name: string; p50: number }> = [];
  for (const [name, f] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await searchAudit(store.db, account, f, 50);
      times.push(performance.now() - s);
    }
    searches.push({ name, p50: median(times) });
  }
  let bytes = 0;
  let chunks = 0;
  // Memory growth while exporting (the bench process has done other work before: its RSS alone says little).
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const s = performance.now();
  await pipeline(
    exportStream(store.db, account, {}, 'csv'),
    new Writable({
      write(chunk: Buffer, _e, done) {
        bytes += chunk.length;
        if (++chunks % 1000 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        done();
      },
    }),
  );
  const exportS = (performance.now() - s) / 1000;
  const exported = Math.round(rows * 0.9);
  await store.close();
  return { rows, loadS, searches, exportRowsPerSec: exported / exportS, exportMB: bytes / 1e6, rssGrowthMB: (rssPeak - rssBefore) / 1e6 };
}
