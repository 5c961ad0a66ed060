// Owns the client's overview page: wallet and the last 24 hours of API traffic, hour by hour.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { okEnvelope } from '../../http/envelope.js';
import { getWallet } from '../../accounts/store.js';
import { paiseToInr } from '../../money.js';
import { accountOf } from './context.js';

export function registerOverview(api: FastifyInstance, db: Db): void {
  api.get('/console/api/overview', { schema: { hide: true } }, async (req) => {
    const id = accountOf(req);
    const w = await getWallet(db, id);
    const series = await sql<{ hour: Date; requests: number; ok: number; p50: number | null }>`
      SELECT date_trunc('hour', created_at) AS hour, COUNT(*)::int AS requests, COUNT(*) FILTER (WHERE ok)::int AS ok,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50
      FROM audit_logs WHERE account_id = ${id} AND method <> 'ADMIN' AND created_at > now() - interval '24 hours'
      GROUP BY 1 ORDER BY 1`.execute(db);
    return okEnvelope('Overview', {
      wallet: { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' },
      series: series.rows.map((r) => ({ hour: r.hour.toISOString(), requests: r.requests, success_rate: r.requests ? r.ok / r.requests : 0, p50_ms: r.p50 ?? 0 })),
    });
  });
}
