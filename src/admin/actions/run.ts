// Owns how every admin action runs, whoever calls it (CLI, admin socket, console): the change and its
// ADMIN audit row in one database transaction. Locks go in the order every writer uses — the change's
// own rows (a wallet row for a top-up) first, the audit chain's head last — so an action cannot
// deadlock with group-committed API requests (docs/ARCHITECTURE.md, Group commit).
import type { Db } from '../../db/client.js';
import type { Trx } from '../../db/transaction.js';
import { appendAdminEvent, type Actor, type AdminEvent } from '../../audit/admin-events.js';

export type { Actor };

export const consoleActor = (email: string): Actor => `console:${email}`;

/** Runs `change`, then appends the event (or the steps, in order) it describes; all commit or none does. */
export function adminAction<T>(db: Db, actor: Actor, change: (trx: Trx) => Promise<{ result: T; event: AdminEvent | AdminEvent[] }>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const { result, event } = await change(trx);
    for (const e of [event].flat()) await appendAdminEvent(trx, actor, e);
    return result;
  });
}
