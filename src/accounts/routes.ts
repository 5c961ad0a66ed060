// Owns the account endpoints a client's key can read: the wallet.
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import type { Services } from '../services.js';
import { getWallet } from './store.js';
import { statementPage, StatementCursor } from './statement.js';
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable, Page, responses } from '../http/responses.js';

const Inr = (description: string) => Type.Number({ description: `${description}, INR` });

const StatementEntry = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  kind: Type.String({ description: 'What the ledger posting was (topup for a top-up)' }),
  txn_id: Nullable(Type.String(), { description: 'The transaction behind the entry; null for a top-up' }),
  amount: Inr('Signed: credits positive, debits negative'),
  balance_after: Inr("The wallet's total (available + held) after the entry"),
  memo: Nullable(Type.String()),
});

export function registerAccountRoutes(app: FastifyInstance, services: Services): void {
  app.get(
    '/api/v1/account/wallet',
    {
      schema: {
        operationId: 'getWallet',
        summary: 'Wallet balance (INR): available and held by pending operations',
        tags: ['Account'],
        response: responses(
          Envelope(Type.Object({ balance: Inr('Available'), held: Inr('Reserved by pending operations'), currency: Type.Literal('INR') })),
          { errors: [404] },
        ),
      },
    },
    async (req) => {
      const w = await getWallet(services.db, req.auth!.accountId);
      return okEnvelope('Wallet balance', { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' });
    },
  );

  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    '/api/v1/account/statement',
    {
      schema: {
        operationId: 'getStatement',
        summary: 'Wallet statement: ledger entries, newest first (top-ups, debits), with the running total',
        tags: ['Account'],
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          cursor: Type.Optional(StatementCursor),
        }),
        response: responses(Envelope(Page(StatementEntry, StatementCursor)), { errors: [404] }),
      },
    },
    async (req) => okEnvelope('Wallet statement', await statementPage(services.db, req.auth!.accountId, req.query.limit ?? 50, req.query.cursor)),
  );
}
