// Owns audit rows for administrative changes (key lifecycle, allow-list, approvals, limits), made from
// the CLI or the admin socket. They sit in the same trail as API requests, with method "ADMIN".
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { newId } from '../ids.js';
import { insertChained } from './chain.js';

export async function recordAdminEvent(
  db: Db,
  e: { accountId: string; environment?: Environment | null; action: string; detail: Record<string, unknown> },
): Promise<void> {
  await db.transaction().execute((trx) =>
    insertChained(trx, [{
      request_id: newId('adm', 20),
      created_at: new Date(),
      account_id: e.accountId,
      key_id: typeof e.detail.key_id === 'string' ? e.detail.key_id : null,
      environment: e.environment ?? null,
      client_ip: null,
      method: 'ADMIN',
      path: e.action,
      operation: null,
      http_status: 200,
      ok: true,
      statuscode: 'TXN',
      reference_id: null,
      latency_ms: 0,
      request_body: JSON.stringify(e.detail),
      response_body: null,
    }]),
  );
}
