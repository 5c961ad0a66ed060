// Owns the account endpoints a client's key can read: the wallet.
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import type { Services } from '../services.js';
import { getWallet } from './store.js';
import { statement } from '../ledger/ledger.js';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../errors.js';

export function registerAccountRoutes(app: FastifyInstance, services: Services): void {
  app.get(
    '/api/v1/account/wallet',
    { schema: { summary: 'Wallet balance (INR): available and held by pending operations', tags: ['Account'] } },
    async (req) => {
      const w = await getWallet(services.db, req.auth!.accountId);
      return okEnvelope('Wallet balance', { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' });
    },
  );

  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    '/api/v1/account/statement',
    {
      schema: {
        summary: 'Wallet statement: ledger entries, newest first (top-ups, debits), with the running total',
        tags: ['Account'],
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'next_cursor of the previous page' })),
        }),
      },
    },
    async (req) => {
      const limit = req.query.limit ?? 50;
      const before = req.query.cursor === undefined ? undefined : Number(req.query.cursor);
      if (before !== undefined && !Number.isSafeInteger(before)) throw ApiError.validation([{ field: 'cursor', message: 'cursor is not valid' }]);
      const items = await statement(services.db, req.auth!.accountId, limit, before);
      return okEnvelope('Wallet statement', { items, next_cursor: items.length === limit ? String(items.at(-1)!.id) : null });
    },
  );
}
