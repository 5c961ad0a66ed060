// Owns the client's overview page: the wallet, and API traffic over a chosen range (the last 24 hours
// hour by hour, or the last 7 or 30 days day by day), sandbox and live apart.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { getWallet } from '../../../accounts/store.js';
import { paiseToInr } from '../../../money.js';
import { accountOf } from './context.js';

const RANGES = { '24h': { span: '24 hours', bucket: 'hour' }, '7d': { span: '7 days', bucket: 'day' }, '30d': { span: '30 days', bucket: 'day' } } as const;
const Query = Type.Object({
  range: Type.Optional(Type.Union(Object.keys(RANGES).map((r) => Type.Literal(r)), { errorMessage: `range must be one of ${Object.keys(RANGES).join(', ')}` })),
});

interface Bucket {
  at: Date;
  environment: string;
  requests: number;
  ok: number;
  p50: number | null;
}

/** Requests, successes and median latency per bucket and environment (API calls only: not admin rows). */
async function traffic(db: Db, accountId: string, range: keyof typeof RANGES) {
  const { span, bucket } = RANGES[range];
  const rows = await sql<Bucket>`
    SELECT date_trunc(${bucket}, created_at) AS at, environment, COUNT(*)::int AS requests, COUNT(*) FILTER (WHERE ok)::int AS ok,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50
    FROM audit_logs WHERE account_id = ${accountId} AND method <> 'ADMIN' AND environment IS NOT NULL
      AND created_at > now() - ${sql.lit(span)}::interval
    GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
  return rows.rows.map((r) => ({
    at: r.at.toISOString(),
    environment: r.environment,
    requests: r.requests,
    success_rate: r.requests ? r.ok / r.requests : 0,
    p50_ms: r.p50 ?? 0,
  }));
}

export function registerOverview(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof Query> }>('/console/api/overview', { schema: { hide: true, querystring: Query } }, async (req) => {
    const id = accountOf(req);
    const range = (req.query.range ?? '24h') as keyof typeof RANGES;
    const w = await getWallet(db, id);
    return okEnvelope('Overview', {
      wallet: { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' },
      range,
      bucket: RANGES[range].bucket,
      series: await traffic(db, id, range),
    });
  });
}
