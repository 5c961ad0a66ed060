// Owns what the audit tests write by hand: a row as the API records a sandbox POST answered 200 (the
// test names what it varies), and a fresh app whose store they write it into, closed whatever happens.
import type { AuditRow } from '../src/audit/chain.js';
import { AuditWriter } from '../src/audit/writer.js';
import type { Db } from '../src/db/client.js';
import { startApp, type TestApp } from './harness.js';

export const auditRow = (over: Partial<AuditRow> & Pick<AuditRow, 'request_id'>): AuditRow => ({
  created_at: new Date(),
  account_id: null,
  key_id: null,
  environment: 'sandbox',
  client_ip: '127.0.0.1',
  method: 'POST',
  path: '/api/v1/test',
  operation: null,
  http_status: 200,
  ok: true,
  statuscode: 'TXN',
  reference_id: null,
  latency_ms: 1,
  request_body: '{}',
  response_body: '{}',
  ...over,
});

/** Runs `body` on a fresh app (its store and a writer of its own), and closes the app after. */
export async function onFreshApp(body: (db: Db, writer: AuditWriter, t: TestApp) => Promise<void>): Promise<void> {
  const t = await startApp();
  try {
    await body(t.store.db, new AuditWriter(t.store.db), t);
  } finally {
    await t.close();
  }
}
