// Owns the console's management API under /console/api (the web dashboard's backend). Sign-in sets an
// HttpOnly, SameSite=Strict session cookie; every state-changing call must also carry the session's
// CSRF token in X-CSRF-Token; failed sign-ins are throttled per address and email. Client pages act on
// the signed-in user's account; admin pages need an admin. Answers use the API envelope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { ApiError } from '../errors.js';
import { okEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { createAccount, createKey, getWallet, keyAccount, listKeys, requireAccount, revokeKey, rollKey } from '../accounts/store.js';
import { addEntry, AllowlistEntryError, listEntries, removeEntry } from '../access/allowlist.js';
import { approve, listApprovals, unapprove, SLUGS } from '../access/approvals.js';
import { AuthFailureThrottle } from '../access/rate-limit.js';
import { recordAdminEvent } from '../audit/admin-events.js';
import { AuditFilterSchema } from '../audit/routes.js';
import { auditRow, searchAudit } from '../audit/search.js';
import { exportStream } from '../audit/export.js';
import { statement, topUp } from '../ledger/ledger.js';
import { inrToPaise, paiseToInr } from '../money.js';
import { deliveries, listEndpoints, replay } from '../webhooks/store.js';
import { authenticateUser, closeSession, openSession, sessionUser, type ConsoleUser } from './users.js';

declare module 'fastify' {
  interface FastifyRequest {
    consoleUser?: ConsoleUser & { csrf: string };
  }
}

const COOKIE = 'sangam_session';
const Env = Type.Union([Type.Literal('sandbox'), Type.Literal('live')], { errorMessage: 'environment must be sandbox or live' });

export function registerConsoleApi(app: FastifyInstance, services: Services): void {
  const { db } = services;
  const secure = services.config.publicUrl.startsWith('https://');
  const throttle = new AuthFailureThrottle(10);

  app.register(async (api) => {
    await api.register(cookie);

    api.addHook('onRequest', async (req) => {
      if (req.routeOptions.url === '/console/api/login') return;
      const token = req.cookies[COOKIE];
      const user = token ? await sessionUser(db, token) : null;
      if (!user) throw new ApiError('unauthenticated', 'Sign in to the console first');
      if (req.method !== 'GET' && req.headers['x-csrf-token'] !== user.csrf) throw new ApiError('forbidden', 'Missing or wrong X-CSRF-Token');
      req.consoleUser = user;
    });

    const account = (req: FastifyRequest) => {
      const id = req.consoleUser!.account_id;
      if (!id) throw new ApiError('forbidden', 'This console user has no account; ask an admin to attach one');
      return id;
    };
    const admin = (req: FastifyRequest) => {
      if (!req.consoleUser!.is_admin) throw new ApiError('forbidden', 'Admins only');
    };
    const ownKey = async (req: FastifyRequest, keyId: string) => {
      const owner = await keyAccount(db, keyId);
      if (!owner || owner.account_id !== account(req)) throw new ApiError('not_found', `No key ${keyId}`);
      return owner;
    };

    const Login = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) });
    api.post<{ Body: Static<typeof Login> }>('/console/api/login', { schema: { hide: true, body: Login } }, async (req, reply: FastifyReply) => {
      const who = `${req.ip}|${req.body.email.toLowerCase()}`;
      throttle.check(who);
      const user = await authenticateUser(db, req.body.email, req.body.password);
      if (!user) {
        throttle.fail(who);
        throw new ApiError('unauthenticated', 'Wrong email or password');
      }
      const s = await openSession(db, user.id);
      reply.setCookie(COOKIE, s.token, { httpOnly: true, sameSite: 'strict', secure, path: '/console', expires: s.expires });
      return okEnvelope('Signed in', { user, csrf_token: s.csrf });
    });

    api.post('/console/api/logout', { schema: { hide: true } }, async (req, reply) => {
      await closeSession(db, req.cookies[COOKIE]!);
      reply.clearCookie(COOKIE, { path: '/console' });
      return okEnvelope('Signed out', {});
    });

    api.get('/console/api/session', { schema: { hide: true } }, async (req) => {
      const { csrf, ...user } = req.consoleUser!;
      const approvals = user.account_id ? await listApprovals(db, user.account_id) : [];
      return okEnvelope('Session', { user, csrf_token: csrf, approvals, operations: SLUGS });
    });

    api.get('/console/api/overview', { schema: { hide: true } }, async (req) => {
      const id = account(req);
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

    // Keys
    api.get('/console/api/keys', { schema: { hide: true } }, async (req) => okEnvelope('Keys', { items: await listKeys(db, account(req)) }));
    api.post<{ Body: { environment: 'sandbox' | 'live' } }>('/console/api/keys', { schema: { hide: true, body: Type.Object({ environment: Env }) } }, async (req) => {
      const id = account(req);
      if (req.body.environment === 'live' && (await listApprovals(db, id)).length === 0) {
        throw new ApiError('forbidden', 'Live keys are issued once the account is approved for at least one operation');
      }
      const k = await createKey(db, id, req.body.environment);
      await recordAdminEvent(db, { accountId: id, environment: req.body.environment, action: 'keys create', detail: { key_id: k.id, by: req.consoleUser!.email } });
      return okEnvelope('Key created: copy it now, it is not shown again', k);
    });
    const Grace = Type.Object({ grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 * 86_400 })) });
    api.post<{ Params: { id: string }; Body: Static<typeof Grace> }>('/console/api/keys/:id/roll', { schema: { hide: true, body: Grace } }, async (req) => {
      const owner = await ownKey(req, req.params.id);
      const grace = req.body?.grace_seconds ?? 86_400;
      const rolled = await rollKey(db, req.params.id, grace);
      await recordAdminEvent(db, { accountId: owner.account_id, environment: owner.environment, action: 'keys roll', detail: { key_id: req.params.id, new_key_id: rolled.id, grace_s: grace, by: req.consoleUser!.email } });
      return okEnvelope('Key rolled: copy the new key now', rolled);
    });
    api.post<{ Params: { id: string } }>('/console/api/keys/:id/revoke', { schema: { hide: true } }, async (req) => {
      const owner = await ownKey(req, req.params.id);
      const r = await revokeKey(db, req.params.id);
      await recordAdminEvent(db, { accountId: owner.account_id, environment: owner.environment, action: 'keys revoke', detail: { key_id: req.params.id, by: req.consoleUser!.email } });
      return okEnvelope('Key revoked', r);
    });

    // IP allow-list
    api.get<{ Querystring: { environment: 'sandbox' | 'live' } }>('/console/api/allowlist', { schema: { hide: true, querystring: Type.Object({ environment: Env }) } }, async (req) =>
      okEnvelope('Allow-list', { environment: req.query.environment, entries: await listEntries(db, account(req), req.query.environment) }),
    );
    const Entry = Type.Object({ environment: Env, entry: Type.String({ minLength: 1, maxLength: 64 }) });
    for (const [method, how] of [['POST', 'add'], ['DELETE', 'remove']] as const) {
      api.route<{ Body: Static<typeof Entry> }>({
        method,
        url: '/console/api/allowlist',
        schema: { hide: true, body: Entry },
        handler: async (req) => {
          const id = account(req);
          try {
            if (how === 'add') await addEntry(db, id, req.body.environment, req.body.entry);
            else await removeEntry(db, id, req.body.environment, req.body.entry);
          } catch (err) {
            if (err instanceof AllowlistEntryError) throw ApiError.validation([{ field: 'entry', message: err.message }]);
            throw err;
          }
          await recordAdminEvent(db, { accountId: id, environment: req.body.environment, action: `allowlist ${how}`, detail: { entry: req.body.entry, by: req.consoleUser!.email } });
          return okEnvelope('Allow-list updated', { environment: req.body.environment, entries: await listEntries(db, id, req.body.environment) });
        },
      });
    }

    // Logs
    const LogQuery = Type.Object({ ...AuditFilterSchema, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), cursor: Type.Optional(Type.String({ maxLength: 200 })) });
    api.get<{ Querystring: Static<typeof LogQuery> }>('/console/api/logs', { schema: { hide: true, querystring: LogQuery } }, async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return okEnvelope('Logs', await searchAudit(db, account(req), filters, limit ?? 50, cursor));
    });
    const ExportQuery = Type.Object({ ...AuditFilterSchema, format: Type.Union([Type.Literal('csv'), Type.Literal('ndjson')]) });
    api.get<{ Querystring: Static<typeof ExportQuery> }>('/console/api/logs/export', { schema: { hide: true, querystring: ExportQuery } }, async (req, reply) => {
      const { format, ...filters } = req.query;
      reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="sangam-audit.${format}"`);
      return reply.send(exportStream(db, account(req), filters, format));
    });
    api.get<{ Params: { request_id: string } }>('/console/api/logs/:request_id', { schema: { hide: true } }, async (req) =>
      okEnvelope('Log', await auditRow(db, account(req), req.params.request_id)),
    );

    // Webhooks
    api.get<{ Querystring: { environment: 'sandbox' | 'live' } }>('/console/api/webhooks', { schema: { hide: true, querystring: Type.Object({ environment: Env }) } }, async (req) =>
      okEnvelope('Webhook endpoints', { items: await listEndpoints(db, { accountId: account(req), environment: req.query.environment }) }),
    );
    api.get<{ Params: { id: string }; Querystring: { environment: 'sandbox' | 'live' } }>(
      '/console/api/webhooks/:id/deliveries',
      { schema: { hide: true, querystring: Type.Object({ environment: Env }) } },
      async (req) => okEnvelope('Deliveries', { items: await deliveries(db, { accountId: account(req), environment: req.query.environment }, req.params.id, 50) }),
    );
    const Replay = Type.Object({ environment: Env, event_id: Type.Optional(Type.String({ maxLength: 64 })), since: Type.Optional(Type.String({ format: 'date-time' })) });
    api.post<{ Params: { id: string }; Body: Static<typeof Replay> }>('/console/api/webhooks/:id/replay', { schema: { hide: true, body: Replay } }, async (req) => {
      const n = await replay(db, { accountId: account(req), environment: req.body.environment }, req.params.id, {
        eventId: req.body.event_id,
        since: req.body.since ? new Date(req.body.since) : req.body.event_id ? undefined : new Date(0),
      });
      return okEnvelope('Replay scheduled', { replayed: n });
    });

    // Wallet
    api.get<{ Querystring: { cursor?: string } }>('/console/api/statement', { schema: { hide: true } }, async (req) => {
      const items = await statement(db, account(req), 100, req.query.cursor ? Number(req.query.cursor) : undefined);
      return okEnvelope('Statement', { items, next_cursor: items.length === 100 ? String(items.at(-1)!.id) : null });
    });

    // Admin
    api.get('/console/api/admin/accounts', { schema: { hide: true } }, async (req) => {
      admin(req);
      const rows = await db
        .selectFrom('accounts as a')
        .innerJoin('wallet_balances as w', 'w.account_id', 'a.id')
        .select(['a.id', 'a.name', 'a.created_at', 'w.balance_paise', 'w.held_paise'])
        .orderBy('a.created_at', 'desc')
        .limit(500)
        .execute();
      const approvals = await db.selectFrom('approvals').select(['account_id', 'operation']).execute();
      return okEnvelope('Accounts', {
        operations: SLUGS,
        items: rows.map((r) => ({
          id: r.id,
          name: r.name,
          created_at: r.created_at.toISOString(),
          balance: paiseToInr(r.balance_paise),
          held: paiseToInr(r.held_paise),
          approvals: approvals.filter((a) => a.account_id === r.id).map((a) => a.operation),
        })),
      });
    });
    api.post<{ Body: { name: string } }>('/console/api/admin/accounts', { schema: { hide: true, body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }) } }, async (req) => {
      admin(req);
      return okEnvelope('Account created', await createAccount(db, req.body.name.trim()));
    });
    const TopUp = Type.Object({ amount: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, multipleOf: 0.01, errorMessage: 'amount must be INR > 0 with at most 2 decimals' }) });
    api.post<{ Params: { id: string }; Body: Static<typeof TopUp> }>('/console/api/admin/accounts/:id/topup', { schema: { hide: true, body: TopUp } }, async (req) => {
      admin(req);
      await requireAccount(db, req.params.id);
      const balance = await topUp(db, req.params.id, inrToPaise(req.body.amount), `console top-up by ${req.consoleUser!.email}`);
      await recordAdminEvent(db, { accountId: req.params.id, action: 'wallet topup', detail: { amount: req.body.amount, by: req.consoleUser!.email } });
      return okEnvelope('Wallet topped up', { balance: paiseToInr(balance) });
    });
    const Approval = Type.Object({ operation: Type.String({ enum: ['all', ...SLUGS] }), approved: Type.Boolean() });
    api.post<{ Params: { id: string }; Body: Static<typeof Approval> }>('/console/api/admin/accounts/:id/approvals', { schema: { hide: true, body: Approval } }, async (req) => {
      admin(req);
      await requireAccount(db, req.params.id);
      const list = req.body.approved ? await approve(db, req.params.id, req.body.operation) : await unapprove(db, req.params.id, req.body.operation);
      await recordAdminEvent(db, { accountId: req.params.id, environment: 'live', action: req.body.approved ? 'approve' : 'unapprove', detail: { operation: req.body.operation, by: req.consoleUser!.email } });
      return okEnvelope('Approvals updated', { approved: list });
    });
    api.get('/console/api/admin/review', { schema: { hide: true } }, async (req) => {
      admin(req);
      const rows = await db
        .selectFrom('transactions')
        .select(['id', 'account_id', 'operation', 'reference_id', 'partner', 'checks', 'review_reason', 'flagged', 'created_at', 'amount_paise'])
        .where((eb) => eb.or([eb('review_reason', 'is not', null), eb('flagged', 'is not', null)]))
        .orderBy('created_at')
        .limit(500)
        .execute();
      return okEnvelope('Manual review', {
        items: rows.map((r) => ({ ...r, amount: r.amount_paise === null ? null : paiseToInr(r.amount_paise), created_at: r.created_at.toISOString() })),
      });
    });
  });
}
