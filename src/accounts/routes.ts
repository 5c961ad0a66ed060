// Owns the account endpoints a client's key can read: the wallet.
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import type { Services } from '../services.js';
import { getWallet } from './store.js';
import { statementPage, StatementCursor } from './statement.js';
import { Type } from '@sinclair/typebox';

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
          cursor: Type.Optional(StatementCursor),
        }),
      },
    },
    async (req) => okEnvelope('Wallet statement', await statementPage(services.db, req.auth!.accountId, req.query.limit ?? 50, req.query.cursor)),
  );
}
