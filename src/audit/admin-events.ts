// Owns audit rows for administrative changes (accounts, key lifecycle, allow-lists, approvals, limits,
// top-ups), made from the CLI, the admin socket or the console. They sit in the same trail as API
// requests, with method "ADMIN" and the action as their path; the body names who acted (`actor`).
// The row is appended inside the caller's transaction, the one holding the change itself, so a change
// is never stored without its audit row nor an audit row without its change.
import type { Environment } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import { newId } from '../ids.js';
import { insertChained } from './chain.js';
import type { DataClass } from './retention.js';

/**
 * Who made an admin change: the operator's command line (or admin socket), the command line acting as
 * a named console admin (`cli:<email>`, where a change needs a person: maker-checker), a console user,
 * an API key (an erasure request, a consent withdrawn), Sangam itself (`system:<worker>`: a consent
 * that expired), or the person a consent is about (`subject:consent-page`: withdrawn on the hosted page).
 */
export type Actor = 'cli' | `cli:${string}` | `console:${string}` | `key:${string}` | `system:${string}` | `subject:${string}`;

export interface AdminEvent {
  /** The account changed; null for a change of the deployment's own (a price, an operator's user). */
  accountId: string | null;
  environment?: Environment | null;
  action: string;
  detail: Record<string, unknown>;
  /** Its retention class; `bodies` unless given (a consent receipt's row: `consent`). */
  dataClass?: DataClass;
}

/** Appends the event to the hash chain in `trx`; it locks the chain's head, so call it after the change's own locks. */
export async function appendAdminEvent(trx: Trx, actor: Actor, e: AdminEvent): Promise<void> {
  await insertChained(trx, [
    {
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
      request_body: JSON.stringify({ ...e.detail, actor }),
      response_body: null,
      ...(e.dataClass && { data_class: e.dataClass }),
    },
  ]);
}
